import FirestoreModel
import Testing

@testable import ProtoWire

/// Production's missing-index messages and console links, reproduced byte for byte from links
/// pasted in public repositories (docs/reference/indexes.md §5.3 lists each source).
@Suite struct MissingIndexMessageTests {
    static func p(_ s: String) -> FieldPath { FieldPath(s.split(separator: ".").map(String.init)) }
    static func composite(_ group: String, _ fields: [(String, IndexField.Kind)], scope: IndexQueryScope = .collection) -> MissingIndex {
        .composite(CompositeIndex(collectionGroup: group, queryScope: scope, fields: fields.map { IndexField(p($0.0), $0.1) }))
    }

    struct Link: CustomTestStringConvertible, Sendable {
        var source: String
        var project: String
        var missing: MissingIndex
        var parameter: String
        var testDescription: String { source }
    }

    static let links: [Link] = [
        Link(
            source: "RealDevSquad/website-backend#2297 (logs: meta.userId, timestamp desc)", project: "realdevsquad-10012",
            missing: composite("logs", [("meta.userId", .ascending), ("timestamp", .descending), ("__name__", .descending)]),
            parameter:
                "Ck9wcm9qZWN0cy9yZWFsZGV2c3F1YWQtMTAwMTIvZGF0YWJhc2VzLyhkZWZhdWx0KS9jb2xsZWN0aW9uR3JvdXBzL2xvZ3MvaW5kZXhlcy9fEAEaDwoLbWV0YS51c2VySWQQARoNCgl0aW1lc3RhbXAQAhoMCghfX25hbWVfXxAC"
        ),
        Link(
            source: "RealDevSquad/website-backend#2297 (logs, ascending)", project: "realdevsquad-10012",
            missing: composite("logs", [("meta.userId", .ascending), ("timestamp", .ascending)]),
            parameter:
                "Ck9wcm9qZWN0cy9yZWFsZGV2c3F1YWQtMTAwMTIvZGF0YWJhc2VzLyhkZWZhdWx0KS9jb2xsZWN0aW9uR3JvdXBzL2xvZ3MvaW5kZXhlcy9fEAEaDwoLbWV0YS51c2VySWQQARoNCgl0aW1lc3RhbXAQARoMCghfX25hbWVfXxAB"
        ),
        Link(
            source: "products: keywords CONTAINS, dateAdded desc", project: "main-f8628",
            missing: composite("products", [("keywords", .arrayContains), ("dateAdded", .descending)]),
            parameter:
                "Cktwcm9qZWN0cy9tYWluLWY4NjI4L2RhdGFiYXNlcy8oZGVmYXVsdCkvY29sbGVjdGlvbkdyb3Vwcy9wcm9kdWN0cy9pbmRleGVzL18QARoMCghrZXl3b3JkcxgBGg0KCWRhdGVBZGRlZBACGgwKCF9fbmFtZV9fEAI"
        ),
        Link(
            source: "tasks: folderId ==, orderBy completed, order", project: "studio-4025468409-90e18",
            missing: composite("tasks", [("folderId", .ascending), ("completed", .ascending), ("order", .ascending)]),
            parameter:
                "ClVwcm9qZWN0cy9zdHVkaW8tNDAyNTQ2ODQwOS05MGUxOC9kYXRhYmFzZXMvKGRlZmF1bHQpL2NvbGxlY3Rpb25Hcm91cHMvdGFza3MvaW5kZXhlcy9fEAEaDAoIZm9sZGVySWQQARoNCgljb21wbGV0ZWQQARoJCgVvcmRlchABGgwKCF9fbmFtZV9fEAE"
        ),
        Link(
            source: "exemption: reminders.status COLLECTION_GROUP_ASC", project: "taskalert-app-8d45d",
            missing: .singleField(
                collectionGroup: "reminders", fieldPath: p("status"), setting: .init(queryScope: .collectionGroup, kind: .ascending)),
            parameter:
                "Cllwcm9qZWN0cy90YXNrYWxlcnQtYXBwLThkNDVkL2RhdGFiYXNlcy8oZGVmYXVsdCkvY29sbGVjdGlvbkdyb3Vwcy9yZW1pbmRlcnMvZmllbGRzL3N0YXR1cxACGgoKBnN0YXR1cxAB"
        ),
        Link(
            source: "exemption: participants.userId COLLECTION_GROUP_ASC", project: "perfect-scheduler-410a0",
            missing: .singleField(
                collectionGroup: "participants", fieldPath: p("userId"), setting: .init(queryScope: .collectionGroup, kind: .ascending)),
            parameter:
                "CmBwcm9qZWN0cy9wZXJmZWN0LXNjaGVkdWxlci00MTBhMC9kYXRhYmFzZXMvKGRlZmF1bHQpL2NvbGxlY3Rpb25Hcm91cHMvcGFydGljaXBhbnRzL2ZpZWxkcy91c2VySWQQAhoKCgZ1c2VySWQQAQ"
        ),
    ]

    @Test(arguments: links) func reproducesPastedLinks(_ link: Link) {
        #expect(MissingIndexMessage.parameter(for: link.missing, database: DatabaseID(project: link.project)) == link.parameter)
    }

    /// The whole message, as pasted from a Cloud Functions log.
    @Test func exemptionMessageVerbatim() {
        let missing = MissingIndex.singleField(
            collectionGroup: "reminders", fieldPath: Self.p("status"), setting: .init(queryScope: .collectionGroup, kind: .ascending))
        #expect(
            MissingIndexMessage.text(for: missing, database: DatabaseID(project: "taskalert-app-8d45d"))
                == "The query requires a COLLECTION_GROUP_ASC index for collection reminders and field status. You can create it here: https://console.firebase.google.com/v1/r/project/taskalert-app-8d45d/firestore/indexes?create_exemption=Cllwcm9qZWN0cy90YXNrYWxlcnQtYXBwLThkNDVkL2RhdGFiYXNlcy8oZGVmYXVsdCkvY29sbGVjdGlvbkdyb3Vwcy9yZW1pbmRlcnMvZmllbGRzL3N0YXR1cxACGgoKBnN0YXR1cxAB"
        )
    }

    /// From query to message: the index `IndexRequirement` derives is the one production linked.
    @Test func compositeMessageFromAQuery() throws {
        let query = StructuredQuery(
            collectionID: "transactions",
            filter: .composite(
                .and, [.field(Self.p("userId"), .equal, .string("u")), .field(Self.p("isDeleted"), .equal, .boolean(false))]),
            orderBy: [Order(Self.p("date"), .descending)])
        let missing = try #require(
            IndexRequirement.missingIndex(for: QueryTarget(parent: .root, query: query), configuration: IndexConfiguration()))
        #expect(
            MissingIndexMessage.text(for: missing, database: DatabaseID(project: "smart-budget-analyzer"))
                == "The query requires an index. You can create it here: https://console.firebase.google.com/v1/r/project/smart-budget-analyzer/firestore/indexes?create_composite=Clpwcm9qZWN0cy9zbWFydC1idWRnZXQtYW5hbHl6ZXIvZGF0YWJhc2VzLyhkZWZhdWx0KS9jb2xsZWN0aW9uR3JvdXBzL3RyYW5zYWN0aW9ucy9pbmRleGVzL18QARoNCglpc0RlbGV0ZWQQARoKCgZ1c2VySWQQARoICgRkYXRlEAIaDAoIX19uYW1lX18QAg"
        )
        let recaps = StructuredQuery(
            collectionID: "recaps",
            filter: .composite(.and, [.field(Self.p("userId"), .equal, .string("u")), .field(Self.p("childId"), .equal, .string("c"))]),
            orderBy: [Order(Self.p("period.endDate"), .descending)])
        let m2 = try #require(
            IndexRequirement.missingIndex(for: QueryTarget(parent: .root, query: recaps), configuration: IndexConfiguration()))
        #expect(
            MissingIndexMessage.parameter(for: m2, database: DatabaseID(project: "sproutbook-d0c8f"))
                == "Ck9wcm9qZWN0cy9zcHJvdXRib29rLWQwYzhmL2RhdGFiYXNlcy8oZGVmYXVsdCkvY29sbGVjdGlvbkdyb3Vwcy9yZWNhcHMvaW5kZXhlcy9fEAEaCwoHY2hpbGRJZBABGgoKBnVzZXJJZBABGhIKDnBlcmlvZC5lbmREYXRlEAIaDAoIX19uYW1lX18QAg"
        )
    }

    @Test func multipleInequalityFieldsAddTheGuide() {
        let missing = Self.composite("c", [("a", .ascending), ("b", .ascending)])
        let text = MissingIndexMessage.text(for: missing, database: DatabaseID(project: "p"), multipleInequalityFields: true)
        #expect(
            text.hasPrefix(
                "The query requires an index. You can create it here: https://console.firebase.google.com/v1/r/project/p/firestore/indexes?create_composite="
            ))
        #expect(
            text.hasSuffix(
                " .\nThe query contains range and inequality filters on multiple fields, please refer to the documentation for index selection best practices: https://cloud.google.com/firestore/docs/query-data/multiple-range-fields."
            ))
        #expect(!MissingIndexMessage.text(for: missing, database: DatabaseID(project: "p")).contains("\n"))
    }

    @Test func singleFieldKindsAndScopes() {
        let db = DatabaseID(project: "p")
        func text(_ scope: IndexQueryScope, _ kind: IndexField.Kind) -> String {
            MissingIndexMessage.text(
                for: .singleField(collectionGroup: "posts", fieldPath: Self.p("createdAt"), setting: .init(queryScope: scope, kind: kind)),
                database: db)
        }
        #expect(
            text(.collectionGroup, .descending).hasPrefix(
                "The query requires a COLLECTION_GROUP_DESC index for collection posts and field createdAt. You can create it here: https://console.firebase.google.com/v1/r/project/p/firestore/indexes?create_exemption="
            ))
        #expect(text(.collectionGroup, .arrayContains).hasPrefix("The query requires a COLLECTION_GROUP_CONTAINS index"))
        #expect(
            text(.collection, .ascending).hasPrefix("The query requires a COLLECTION_ASC index for collection posts and field createdAt."))
    }

    @Test func namedDatabasesLinkTheirOwnPage() {
        let db = DatabaseID(project: "p", database: "db2")
        let missing = Self.composite("c", [("a", .ascending), ("b", .ascending)])
        #expect(
            MissingIndexMessage.url(for: missing, database: db).hasPrefix(
                "https://console.firebase.google.com/v1/r/project/p/firestore/databases/db2/indexes?create_composite="))
        // The encoded name carries the database.
        let bytes = MissingIndexMessage.indexMessage(for: missing, database: db)
        #expect(String(decoding: bytes, as: UTF8.self).contains("projects/p/databases/db2/collectionGroups/c/indexes/_"))
    }

    @Test func base64URLHasNoPaddingAndTheURLAlphabet() {
        #expect(MissingIndexMessage.base64URL([]) == "")
        #expect(MissingIndexMessage.base64URL([0xFB]) == "-w")
        #expect(MissingIndexMessage.base64URL([0xFF, 0xFF]) == "__8")
        #expect(MissingIndexMessage.base64URL([0xFB, 0xEF, 0xBE]) == "----")
        #expect(MissingIndexMessage.base64URL(Array("Man".utf8)) == "TWFu")
    }
}

@Suite struct AdminProtoTests {
    @Test func indexResourceBytes() {
        let index = CompositeIndex(collectionGroup: "g", fields: [IndexField(FieldPath(["a"]), .descending)])
        let bytes = AdminProto.indexBytes(index, name: "n", state: .ready)
        // name "n", scope 1, field {a DESC}, field {__name__ DESC}, state READY.
        #expect(
            bytes == [0x0A, 0x01, 0x6E, 0x10, 0x01, 0x1A, 0x05, 0x0A, 0x01, 0x61, 0x10, 0x02]
                + [0x1A, 0x0C, 0x0A, 0x08] + Array("__name__".utf8) + [0x10, 0x02, 0x20, 0x02])
    }

    @Test func fieldBytes() {
        let db = DatabaseID(project: "p")
        let o = FieldOverride(
            collectionGroup: "g", fieldPath: FieldPath(["t"]), indexes: [.init(queryScope: .collectionGroup, kind: .arrayContains)],
            ttl: true)
        let name = Array("projects/p/databases/(default)/collectionGroups/g/fields/t".utf8)
        let inner: [UInt8] = [0x10, 0x02, 0x1A, 0x05, 0x0A, 0x01, 0x74, 0x18, 0x01, 0x20, 0x02]
        #expect(
            AdminProto.fieldBytes(o, database: db)
                == [0x0A, UInt8(name.count)] + name + [0x12, UInt8(inner.count + 2), 0x0A, UInt8(inner.count)] + inner
                + [0x1A, 0x02, 0x08, 0x02])
        let exempt = FieldOverride(collectionGroup: "g", fieldPath: FieldPath(["t"]), indexes: [])
        #expect(AdminProto.fieldBytes(exempt, database: db) == [0x0A, UInt8(name.count)] + name + [0x12, 0x00])
    }
}
