import FirestoreModel

extension ErrorTable {
    /// The Google API error body `{"error": {"code", "message", "status"}}` — e.g.
    /// `{"error":{"code":404,"message":"Document \"x\" not found.","status":"NOT_FOUND"}}`.
    /// - Parameter httpStatus: the HTTP status from the error table (`httpStatus(_:)`,
    ///   docs/reference/firestore-wire.md §1.8), which is also the body's `code`.
    /// Source: googleapis `google/rpc/status.proto` as the JSON APIs render it; docs/reference/firestore-wire.md §1.8.
    public static func errorBody(_ error: FirestoreError, httpStatus: Int) -> JSONValue {
        .object([
            "error": .object([
                "code": .integer(httpStatus), "message": .string(error.message), "status": .string(error.code.name),
            ])
        ])
    }
}
