/// A Firestore REST v1 URL binding: the HTTP method, the resource the URL's path names and
/// the custom verb after `:` (Google API HTTP rules put every verb on a POST).
/// Source: googleapis `google/firestore/v1/firestore.proto` `google.api.http` options,
/// `google/api/http.proto` (path templates and custom verbs).
public struct HTTPBinding: Sendable, Hashable {
    /// What the path after `…/databases/{d}/documents` names.
    public enum Resource: Sendable, Hashable {
        /// `{name}`: a document (an even number of segments, at least two).
        case document
        /// `{parent}/{collection_id}`: a collection (an odd number of segments).
        case collection
        /// `{database}/documents`: the database's documents root (no segments).
        case database
        /// `{parent}`: the documents root or a document (a binding's requirement only; a URL's
        /// path is always one of the three above).
        case parent

        /// The resource kind of a path of `segmentCount` segments after `documents`:
        /// `.database` for none, `.collection` for an odd count, `.document` otherwise.
        public init(segmentCount: Int) {
            if segmentCount == 0 {
                self = .database
            } else {
                self = segmentCount % 2 == 1 ? .collection : .document
            }
        }

        /// True when a URL naming `self` fits a binding that asks for `bound`.
        func fits(_ bound: Resource) -> Bool {
            bound == .parent ? (self == .database || self == .document) : self == bound
        }
    }

    /// `GET`, `POST`, `PATCH` or `DELETE`.
    public var httpMethod: String
    /// The resource the path names.
    public var resource: Resource
    /// The custom verb (`commit`), or nil.
    public var verb: String?

    /// Creates a binding.
    public init(_ httpMethod: String, _ resource: Resource, verb: String? = nil) {
        self.httpMethod = httpMethod
        self.resource = resource
        self.verb = verb
    }

    /// True when a request with `httpMethod` on a URL naming `resource` with `verb` reaches this binding.
    public func matches(httpMethod: String, resource: Resource, verb: String?) -> Bool {
        httpMethod == self.httpMethod && verb == self.verb && resource.fits(self.resource)
    }
}
