import FirestoreModel
import Testing

@testable import GoogleWire

/// `firestore.indexes.json` decoding with located diagnostics, encoding, and the JSON parser's
/// position side table (docs/reference/indexes.md §6).
@Suite struct JSONLocatedParseTests {
    @Test func recordsTheStartOfEveryValue() throws {
        let text = "{\n  \"a\": [1, {\"b\": null}],\n  \"c\": \"x\"\n}"
        let root = try JSONValue.parseLocated(Array(text.utf8))
        #expect(root.value == (try JSONValue.parse(text)))
        #expect(root.offset == 0)
        let a = try #require(root["a"])
        #expect(a.offset == 9)
        #expect(a.children.map(\.offset) == [10, 13])
        #expect(a.children[1]["b"]?.offset == 19)
        let lines = JSONSourceLines(Array(text.utf8))
        #expect(lines.position(ofByte: try #require(root["c"]).offset) == (3, 8))
        #expect(lines.position(ofByte: 0) == (1, 1))
    }

    @Test func columnsCountScalarsNotBytes() {
        let lines = JSONSourceLines(Array("{\"é\": 1}".utf8))
        #expect(lines.position(ofByte: 7) == (1, 7))
    }

    /// A UTF-8 byte order mark (which the parser skips) is no column: editors do not show it.
    @Test func aByteOrderMarkIsNoColumn() {
        let lines = JSONSourceLines([0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}\n 2".utf8))
        #expect(lines.position(ofByte: 3) == (1, 1))
        #expect(lines.position(ofByte: 9) == (1, 7))
        #expect(lines.position(ofByte: 13) == (2, 2))
    }

    /// CR of a CRLF ending belongs to the line before; a tab is one column.
    @Test func crlfAndTabs() {
        let lines = JSONSourceLines(Array("{\r\n\t\"a\": x".utf8))
        #expect(lines.position(ofByte: 9) == (2, 7))
    }

    @Test func syntaxErrorsKeepTheirOffset() {
        #expect(throws: JSONSyntaxError(offset: 8, reason: "expected ',' or '}'")) {
            try JSONValue.parseLocated(Array("{\"a\": 1 \"b\": 2}".utf8))
        }
        #expect(throws: JSONSyntaxError(offset: 1, reason: "unexpected end of input")) {
            try JSONValue.parseLocated(Array("[".utf8))
        }
    }

    @Test func thePlainParseIsUnchanged() throws {
        #expect(throws: FirestoreError.invalidArgument("Invalid JSON payload at byte 8: expected ',' or '}'.")) {
            try JSONValue.parse("{\"a\": 1 \"b\": 2}")
        }
    }
}

@Suite struct IndexesFileTests {
    static let sample = """
        {
          "indexes": [
            {
              "collectionGroup": "messages",
              "queryScope": "COLLECTION",
              "fields": [
                { "fieldPath": "bucket", "order": "ASCENDING" },
                { "fieldPath": "i", "order": "DESCENDING" }
              ]
            },
            {
              "collectionGroup": "posts",
              "queryScope": "COLLECTION_GROUP",
              "fields": [
                { "fieldPath": "tags", "arrayConfig": "CONTAINS" },
                { "fieldPath": "meta.`x.y`", "order": "ASCENDING" }
              ]
            }
          ],
          "fieldOverrides": [
            {
              "collectionGroup": "posts",
              "fieldPath": "body",
              "ttl": false,
              "indexes": []
            },
            {
              "collectionGroup": "posts",
              "fieldPath": "author",
              "indexes": [
                { "order": "ASCENDING", "queryScope": "COLLECTION" },
                { "order": "ASCENDING", "queryScope": "COLLECTION_GROUP" },
                { "arrayConfig": "CONTAINS" }
              ]
            }
          ]
        }
        """

    @Test func decodesTheFormat() throws {
        let config = try IndexesFile.decode(Self.sample)
        #expect(
            config.indexes == [
                CompositeIndex(
                    collectionGroup: "messages",
                    fields: [IndexField(FieldPath(["bucket"]), .ascending), IndexField(FieldPath(["i"]), .descending)]),
                CompositeIndex(
                    collectionGroup: "posts", queryScope: .collectionGroup,
                    fields: [IndexField(FieldPath(["tags"]), .arrayContains), IndexField(FieldPath(["meta", "x.y"]), .ascending)]),
            ])
        #expect(
            config.fieldOverrides == [
                FieldOverride(collectionGroup: "posts", fieldPath: FieldPath(["body"]), indexes: []),
                FieldOverride(
                    collectionGroup: "posts", fieldPath: FieldPath(["author"]),
                    indexes: [.init(kind: .ascending), .init(queryScope: .collectionGroup, kind: .ascending), .init(kind: .arrayContains)]),
            ])
    }

    @Test func emptyAndMinimalFiles() throws {
        #expect(try IndexesFile.decode("{}") == IndexConfiguration())
        #expect(try IndexesFile.decode("{\"indexes\": [], \"fieldOverrides\": []}") == IndexConfiguration())
        // queryScope defaults to COLLECTION (firebase-tools upgradeOldSpec).
        let config = try IndexesFile.decode(
            #"{"indexes": [{"collectionGroup": "c", "fields": [{"fieldPath": "a", "order": "ASCENDING"}]}]}"#)
        #expect(config.indexes.first?.queryScope == .collection)
    }

    @Test func acceptsTheV1Beta1Spelling() throws {
        let config = try IndexesFile.decode(
            #"{"indexes": [{"collectionId": "c", "fields": [{"fieldPath": "a", "mode": "ARRAY_CONTAINS"}, {"fieldPath": "b", "mode": "DESCENDING"}]}]}"#
        )
        #expect(
            config.indexes == [
                CompositeIndex(
                    collectionGroup: "c", fields: [IndexField(FieldPath(["a"]), .arrayContains), IndexField(FieldPath(["b"]), .descending)])
            ])
    }

    @Test func ignoresUnknownMembersAndVectorIndexes() throws {
        let config = try IndexesFile.decode(
            """
            {"indexes": [
              {"collectionGroup": "c", "queryScope": "COLLECTION", "density": "SPARSE_ALL", "fields": [{"fieldPath": "a", "order": "ASCENDING", "x": 1}]},
              {"collectionGroup": "c", "queryScope": "COLLECTION", "fields": [{"fieldPath": "e", "vectorConfig": {"dimension": 3, "flat": {}}}]}
            ], "comment": "kept out"}
            """)
        #expect(config.indexes == [CompositeIndex(collectionGroup: "c", fields: [IndexField(FieldPath(["a"]), .ascending)])])
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var text: String
        var expected: String
        var testDescription: String { expected }
    }

    static let bad: [Bad] = [
        Bad(
            text:
                "{\n  \"indexes\": [\n    {\n      \"collectionGroup\": \"c\",\n      \"fields\": [\n        {\"fieldPath\": \"a\", \"order\": \"ASC\"}\n      ]\n    }\n  ]\n}",
            expected: #"firestore.indexes.json:6:37: indexes[0].fields[0].order must be "ASCENDING" or "DESCENDING""#),
        Bad(text: "{\"indexes\": {}}", expected: "firestore.indexes.json:1:13: indexes must be an array"),
        Bad(text: "[]", expected: "firestore.indexes.json:1:1: the file must hold a JSON object"),
        Bad(
            text: "{\n\"indexes\": [\n  {\"fields\": [{\"fieldPath\": \"a\", \"order\": \"ASCENDING\"}]}]}",
            expected: #"firestore.indexes.json:3:3: indexes[0] must contain "collectionGroup""#),
        Bad(
            text:
                #"{"indexes": [{"collectionGroup": "c", "queryScope": "DATABASE", "fields": [{"fieldPath": "a", "order": "ASCENDING"}]}]}"#,
            expected: #"firestore.indexes.json:1:53: indexes[0].queryScope must be "COLLECTION" or "COLLECTION_GROUP""#),
        Bad(
            text: #"{"indexes": [{"collectionGroup": "c", "fields": []}]}"#,
            expected: "firestore.indexes.json:1:49: indexes[0].fields must not be empty"),
        Bad(
            text: #"{"indexes": [{"collectionGroup": "c", "fields": [{"fieldPath": "a"}]}]}"#,
            expected:
                #"firestore.indexes.json:1:50: indexes[0].fields[0] must contain exactly one of "order", "arrayConfig", "vectorConfig""#),
        Bad(
            text:
                #"{"indexes": [{"collectionGroup": "c", "fields": [{"fieldPath": "a", "order": "ASCENDING", "arrayConfig": "CONTAINS"}]}]}"#,
            expected:
                #"firestore.indexes.json:1:106: indexes[0].fields[0] must contain exactly one of "order", "arrayConfig", "vectorConfig""#),
        Bad(
            text: #"{"indexes": [{"collectionGroup": "c", "fields": [{"fieldPath": "a", "arrayConfig": "ANY"}]}]}"#,
            expected: #"firestore.indexes.json:1:84: indexes[0].fields[0].arrayConfig must be "CONTAINS""#),
        Bad(
            text: #"{"indexes": [{"collectionGroup": "c", "fields": [{"fieldPath": "a..b", "order": "ASCENDING"}]}]}"#,
            expected: "firestore.indexes.json:1:64: indexes[0].fields[0].fieldPath: "),
        Bad(
            text: #"{"indexes": [{"collectionGroup": "a/b", "fields": [{"fieldPath": "a", "order": "ASCENDING"}]}]}"#,
            expected: "firestore.indexes.json:1:34: indexes[0].collectionGroup: Path segment contains '/': a/b"),
        Bad(
            text: #"{"indexes": [{"collectionGroup": 7, "fields": []}]}"#,
            expected: "firestore.indexes.json:1:34: indexes[0].collectionGroup must be a non-empty string"),
        Bad(
            text: #"{"fieldOverrides": [{"collectionGroup": "c", "fieldPath": "a", "ttl": "yes", "indexes": []}]}"#,
            expected: "firestore.indexes.json:1:71: fieldOverrides[0].ttl must be true or false"),
        Bad(
            text: #"{"fieldOverrides": [{"collectionGroup": "c", "fieldPath": "a"}]}"#,
            expected: #"firestore.indexes.json:1:21: fieldOverrides[0] must contain "indexes""#),
        Bad(
            text: #"{"fieldOverrides": [{"collectionGroup": "c", "fieldPath": "a", "indexes": [{"queryScope": "COLLECTION"}]}]}"#,
            expected: #"firestore.indexes.json:1:76: fieldOverrides[0].indexes[0] must contain exactly one of "order", "arrayConfig""#),
        Bad(
            text:
                #"{"fieldOverrides": [{"collectionGroup": "c", "fieldPath": "a", "indexes": [{"order": "ASCENDING", "queryScope": "X"}]}]}"#,
            expected: #"firestore.indexes.json:1:113: fieldOverrides[0].indexes[0].queryScope must be "COLLECTION" or "COLLECTION_GROUP""#),
        Bad(text: #"{"indexes": [], "indexes": []}"#, expected: "firestore.indexes.json:1:28: indexes is repeated"),
        Bad(
            text: #"{"indexes": [{"collectionGroup": "c", "fields": [{"fieldPath": "e", "vectorConfig": {"flat": {}}}]}]}"#,
            expected: "firestore.indexes.json:1:85: indexes[0].fields[0].vectorConfig.dimension must be a number"),
        Bad(text: "{\n  \"indexes\": [,]\n}", expected: "firestore.indexes.json:2:15: invalid JSON: unexpected character ','"),
        Bad(
            text:
                #"{"indexes": [{"collectionGroup": "c", "fields": [{"fieldPath": "a", "arrayConfig": "CONTAINS"}, {"fieldPath": "b", "mode": "ARRAY_CONTAINS"}]}]}"#,
            expected: "firestore.indexes.json:1:97: indexes[0].fields[1]: an index may have at most one array field"),
    ]

    @Test(arguments: bad) func diagnosticsNameTheLine(_ row: Bad) {
        do {
            _ = try IndexesFile.decode(row.text)
            Issue.record("accepted: \(row.text)")
        } catch {
            #expect(error.description.hasPrefix(row.expected), "\(error.description)")
            #expect(error.fileName == "firestore.indexes.json")
        }
    }

    @Test func theErrorCarriesItsParts() {
        do {
            _ = try IndexesFile.decode("{\"indexes\": 1}", fileName: "app/indexes.json")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 1)
            #expect(error.column == 13)
            #expect(error.message == "indexes must be an array")
            #expect(error.description == "app/indexes.json:1:13: indexes must be an array")
        }
    }

    static let printed = """
        {
          "indexes": [
            {
              "collectionGroup": "messages",
              "queryScope": "COLLECTION",
              "fields": [
                {
                  "fieldPath": "bucket",
                  "order": "ASCENDING"
                },
                {
                  "fieldPath": "i",
                  "order": "DESCENDING"
                }
              ]
            },
            {
              "collectionGroup": "Posts",
              "queryScope": "COLLECTION_GROUP",
              "fields": [
                {
                  "fieldPath": "tags",
                  "arrayConfig": "CONTAINS"
                },
                {
                  "fieldPath": "__name__",
                  "order": "DESCENDING"
                }
              ]
            },
            {
              "collectionGroup": "Posts",
              "queryScope": "COLLECTION",
              "fields": [
                {
                  "fieldPath": "a",
                  "order": "ASCENDING"
                },
                {
                  "fieldPath": "__name__",
                  "order": "DESCENDING"
                }
              ]
            }
          ],
          "fieldOverrides": [
            {
              "collectionGroup": "posts",
              "fieldPath": "author",
              "ttl": false,
              "indexes": [
                {
                  "order": "ASCENDING",
                  "queryScope": "COLLECTION_GROUP"
                },
                {
                  "order": "ASCENDING",
                  "queryScope": "COLLECTION"
                },
                {
                  "arrayConfig": "CONTAINS",
                  "queryScope": "COLLECTION"
                }
              ]
            },
            {
              "collectionGroup": "posts",
              "fieldPath": "expireAt",
              "ttl": true,
              "indexes": []
            }
          ]
        }

        """

    @Test func encodesAsFirestoreIndexesPrints() throws {
        let a = FieldPath(["a"])
        let config = IndexConfiguration(
            indexes: [
                CompositeIndex(collectionGroup: "Posts", fields: [IndexField(a, .ascending), IndexField(.documentKey, .descending)]),
                CompositeIndex(
                    collectionGroup: "messages",
                    fields: [
                        IndexField(FieldPath(["bucket"]), .ascending), IndexField(FieldPath(["i"]), .descending),
                        IndexField(.documentKey, .descending),
                    ]),
                CompositeIndex(
                    collectionGroup: "Posts", queryScope: .collectionGroup,
                    fields: [IndexField(FieldPath(["tags"]), .arrayContains), IndexField(.documentKey, .descending)]),
            ],
            fieldOverrides: [
                FieldOverride(collectionGroup: "posts", fieldPath: FieldPath(["expireAt"]), indexes: [], ttl: true),
                FieldOverride(
                    collectionGroup: "posts", fieldPath: FieldPath(["author"]),
                    indexes: [.init(kind: .arrayContains), .init(kind: .ascending), .init(queryScope: .collectionGroup, kind: .ascending)]),
            ])
        let text = IndexesFile.encode(config)
        #expect(text == Self.printed)
        // Decoding the output gives the configuration back (up to implied __name__ and order).
        let again = try IndexesFile.decode(text)
        #expect(Set(again.indexes.map(\.normalizedFields)) == Set(config.indexes.map(\.normalizedFields)))
        #expect(IndexesFile.encode(again) == text)
    }

    @Test func emptyConfigurationPrintsEmptyLists() {
        #expect(IndexesFile.encode(IndexConfiguration()) == "{\n  \"indexes\": [],\n  \"fieldOverrides\": []\n}\n")
    }

    @Test func localeCompareOrdersLikeJavaScript() {
        #expect(IndexesFile.localeCompare("a", "B") < 0)
        #expect(IndexesFile.localeCompare("b", "A") > 0)
        #expect(IndexesFile.localeCompare("a", "A") < 0)
        #expect(IndexesFile.localeCompare("x", "x") == 0)
        #expect(IndexesFile.localeCompare("ab", "a") > 0)
    }
}

@Suite struct AdminIndexResourceTests {
    let db = DatabaseID(project: "p")
    var resource: AdminIndexResource {
        AdminIndexResource(
            database: db, indexID: "CICAgOi3kJAK",
            index: CompositeIndex(
                collectionGroup: "messages",
                fields: [IndexField(FieldPath(["bucket"]), .ascending), IndexField(FieldPath(["i"]), .descending)]))
    }

    @Test func encodesTheResource() {
        #expect(
            resource.json.serializedString
                == #"{"name":"projects/p/databases/(default)/collectionGroups/messages/indexes/CICAgOi3kJAK","queryScope":"COLLECTION","fields":[{"fieldPath":"bucket","order":"ASCENDING"},{"fieldPath":"i","order":"DESCENDING"},{"fieldPath":"__name__","order":"DESCENDING"}],"state":"READY"}"#
        )
    }

    @Test func roundTripsThroughJSON() throws {
        let back = try AdminIndexResource.decode(resource.json)
        #expect(back.name == resource.name)
        #expect(back.index.normalizedFields == resource.index.normalizedFields)
        #expect(back.state == .ready)
        let list = AdminIndexResource.listResponse([resource], nextPageToken: "t")
        guard case .array(let entries)? = list["indexes"] else {
            Issue.record("no indexes")
            return
        }
        #expect(try entries.map(AdminIndexResource.decode).map(\.indexID) == ["CICAgOi3kJAK"])
        #expect(list["nextPageToken"] == .string("t"))
        #expect(AdminIndexResource.listResponse([]) == .object([]))
    }

    @Test func parsesNames() {
        let parts = AdminIndexResource.parseName("projects/p/databases/db2/collectionGroups/g/indexes/X")
        #expect(parts?.database == DatabaseID(project: "p", database: "db2"))
        #expect(parts?.collectionGroup == "g")
        #expect(parts?.indexID == "X")
        #expect(AdminIndexResource.parseName("projects/p/databases/d/collectionGroups/g/fields/X") == nil)
        #expect(AdminIndexResource.parseName("projects/p/databases/d/collectionGroups//indexes/X") == nil)
    }

    @Test func decodesACreateBody() throws {
        let body = try JSONValue.parse(
            #"{"queryScope": "COLLECTION_GROUP", "fields": [{"fieldPath": "tags", "arrayConfig": "CONTAINS"}, {"fieldPath": "t", "order": "DESCENDING"}]}"#
        )
        let index = try AdminIndexResource.decodeIndex(body, collectionGroup: "g")
        #expect(
            index
                == CompositeIndex(
                    collectionGroup: "g", queryScope: .collectionGroup,
                    fields: [IndexField(FieldPath(["tags"]), .arrayContains), IndexField(FieldPath(["t"]), .descending)]))
        for bad in [
            #"{"fields": []}"#, #"{"queryScope": "X", "fields": [{"fieldPath": "a", "order": "ASCENDING"}]}"#,
            #"{"fields": [{"fieldPath": "a"}]}"#, #"{"fields": [{"fieldPath": "a", "order": "ASCENDING", "arrayConfig": "CONTAINS"}]}"#,
            #"{"fields": [{"order": "ASCENDING"}]}"#, "[]",
        ] {
            #expect(throws: FirestoreError.self, "\(bad)") {
                try AdminIndexResource.decodeIndex(try JSONValue.parse(bad), collectionGroup: "g")
            }
        }
    }

    /// Hostile creates: a second array field, a group that is no collection id; `null` is
    /// proto3 JSON's default (docs/reference/indexes.md §1, §6.2).
    @Test func createRefusesWhatTheFileRefuses() throws {
        let fields = #"[{"fieldPath": "a", "order": "ASCENDING"}]"#
        for (body, group, message) in [
            (
                #"{"fields": [{"fieldPath": "a", "arrayConfig": "CONTAINS"}, {"fieldPath": "b", "arrayConfig": 1}]}"#, "g",
                "Index.fields[1]: an index may have at most one array field (arrayConfig CONTAINS)."
            ),
            (#"{"fields": \#(fields)}"#, "__g__", #"Document or collection id "__g__" is reserved (__.*__)."#),
            (#"{"fields": \#(fields)}"#, "a/b", "Path segment contains '/': a/b"),
        ] {
            #expect(throws: FirestoreError.invalidArgument(message), "\(body) in \(group)") {
                try AdminIndexResource.decodeIndex(try JSONValue.parse(body), collectionGroup: group)
            }
        }
        let defaulted = try AdminIndexResource.decodeIndex(
            try JSONValue.parse(#"{"queryScope": null, "fields": \#(fields)}"#), collectionGroup: "g")
        #expect(defaulted.queryScope == .collection)
    }

    @Test func createReturnsADoneOperation() {
        let op = resource.createOperation(operationID: "op1")
        #expect(op["name"] == .string("projects/p/databases/(default)/operations/op1"))
        #expect(op["done"] == .bool(true))
        #expect(op["metadata"]?["index"] == .string(resource.name))
        #expect(op["response"]?["@type"] == .string("type.googleapis.com/google.firestore.admin.v1.Index"))
        #expect(op["response"]?["state"] == .string("READY"))
    }
}

/// `IndexesFile.amend`: `hearth indexes suggest` adds to the app's file and changes nothing else.
@Suite struct IndexesFileAmendTests {
    static let app = """
        {
          "indexes": [
            {"collectionGroup": "items", "queryScope": "COLLECTION", "density": "SPARSE_ALL", "apiScope": "ANY_API",
             "fields": [{"fieldPath": "a", "order": "ASCENDING"}, {"fieldPath": "b", "order": "DESCENDING"}]},
            {"collectionGroup": "docs", "queryScope": "COLLECTION",
             "fields": [{"fieldPath": "embedding", "vectorConfig": {"dimension": 3, "flat": {}}}]}
          ],
          "fieldOverrides": [
            {"collectionGroup": "items", "fieldPath": "t", "ttl": true, "indexes": []}
          ],
          "extra": {"kept": 1}
        }
        """

    @Test func keepsUnknownMembersVectorIndexesAndOrderAndAddsOnlyWhatIsMissing() throws {
        let current = try IndexesFile.decode(Self.app)
        let added = CompositeIndex(
            collectionGroup: "items", fields: [IndexField(FieldPath(["a"]), .ascending), IndexField(FieldPath(["c"]), .ascending)])
        var wanted = current.adding(.composite(added))
        wanted = wanted.adding(.singleField(collectionGroup: "items", fieldPath: FieldPath(["t"]), setting: .init(kind: .ascending)))
        let text = try IndexesFile.amend(Array(Self.app.utf8), adding: wanted)
        let out = try JSONValue.parse(text)
        guard case .array(let indexes)? = out["indexes"], case .array(let overrides)? = out["fieldOverrides"] else {
            Issue.record("no indexes / fieldOverrides in \(text)")
            return
        }
        #expect(indexes.count == 3)
        #expect(indexes[0]["density"] == .string("SPARSE_ALL"))
        #expect(indexes[1]["fields"].map { $0.serializedString }?.contains("vectorConfig") == true)
        #expect(indexes[2]["fields"] == IndexesFile.json(IndexesFile.listed(added))["fields"])
        #expect(out["extra"] == .object(["kept": .integer(1)]))
        #expect(overrides.count == 1)
        #expect(overrides[0]["ttl"] == .bool(true))
        #expect(overrides[0]["indexes"] == .array([.object(["order": .string("ASCENDING"), "queryScope": .string("COLLECTION")])]))
        // Nothing wanted that the file lacks: the file comes back as it was (re-indented).
        let same = try IndexesFile.amend(Array(Self.app.utf8), adding: current)
        #expect(try JSONValue.parse(same) == (try JSONValue.parse(Self.app)))
    }
}
