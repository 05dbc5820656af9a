extension OutboxMessage {
    /// The message as the outbox endpoint shows it:
    /// `{"messageId", "token", "notification"?: {"title"?, "body"?, "imageUrl"?}, "data", "sentAt"}`
    /// with `sentAt` in RFC 3339.
    public var jsonValue: CallableValue {
        var object: [String: CallableValue] = [
            "messageId": .string(messageID), "token": .string(token),
            "data": .object(data.mapValues(CallableValue.string)), "sentAt": .string(sentAt.rfc3339),
        ]
        if let n = notification {
            var members: [String: CallableValue] = [:]
            if let t = n.title { members["title"] = .string(t) }
            if let b = n.body { members["body"] = .string(b) }
            if let i = n.imageURL { members["imageUrl"] = .string(i) }
            object["notification"] = .object(members)
        }
        return .object(object)
    }
}
