/// The people of `hearth demo`, around the World Clock (Weltzeituhr) on Alexanderplatz,
/// Berlin, at the distances that exercise both radii (docs/app/shouts-and-whispers.md §1 rule 3: whisper 150 m,
/// shout 1,500 m).
///
/// | who | where (from the World Clock) | token |
/// |---|---|---|
/// | Ada | 0 m | `fcm-ada` |
/// | Bruno | 30 m north | `fcm-bruno` |
/// | Chiara | 120 m east | `fcm-chiara` |
/// | Dmitri | 160 m south | `unregistered-dmitri` (FCM answers UNREGISTERED) |
/// | Emeka | 900 m west | none (notifications off) |
/// | Fatima | 1,400 m north-east | `fcm-fatima` |
/// | Grace | 2,000 m south | `fcm-grace` |
/// | Hiro | 60 m west, first heartbeat only after the shout | `fcm-hiro` |
public enum DemoCast {
    /// The World Clock on Alexanderplatz, degrees.
    public static let center = (latitude: 52.52133, longitude: 13.41348)

    /// Ada Lovelace, at the World Clock.
    public static let ada = DemoPerson(
        key: "ada", name: "Ada Lovelace", place: "at the World Clock", origin: center, bearingDegrees: 0,
        distanceMeters: 0, fcmToken: "fcm-ada")
    /// Bruno Schulz, 30 m north.
    public static let bruno = DemoPerson(
        key: "bruno", name: "Bruno Schulz", place: "30 m north", origin: center, bearingDegrees: 0,
        distanceMeters: 30, fcmToken: "fcm-bruno")
    /// Chiara Rossi, 120 m east.
    public static let chiara = DemoPerson(
        key: "chiara", name: "Chiara Rossi", place: "120 m east", origin: center, bearingDegrees: 90,
        distanceMeters: 120, fcmToken: "fcm-chiara")
    /// Dmitri Volkov, 160 m south, whose saved token FCM no longer knows.
    public static let dmitri = DemoPerson(
        key: "dmitri", name: "Dmitri Volkov", place: "160 m south", origin: center, bearingDegrees: 180,
        distanceMeters: 160, fcmToken: "unregistered-dmitri", note: "app reinstalled: FCM no longer knows his token")
    /// Emeka Okafor, 900 m west, notifications off.
    public static let emeka = DemoPerson(
        key: "emeka", name: "Emeka Okafor", place: "900 m west", origin: center, bearingDegrees: 270,
        distanceMeters: 900, fcmToken: nil, note: "notifications off: no token")
    /// Fatima Zahra, 1,400 m north-east.
    public static let fatima = DemoPerson(
        key: "fatima", name: "Fatima Zahra", place: "1,400 m north-east", origin: center, bearingDegrees: 45,
        distanceMeters: 1400, fcmToken: "fcm-fatima")
    /// Grace Hopper, 2 km south.
    public static let grace = DemoPerson(
        key: "grace", name: "Grace Hopper", place: "2,000 m south", origin: center, bearingDegrees: 180,
        distanceMeters: 2000, fcmToken: "fcm-grace", note: "too far for a shout")
    /// Hiro Tanaka, 60 m west, who arrives after the shout.
    public static let hiro = DemoPerson(
        key: "hiro", name: "Hiro Tanaka", place: "60 m west", origin: center, bearingDegrees: 270,
        distanceMeters: 60, fcmToken: "fcm-hiro", note: "late arrival: first heartbeat after the shout")

    /// Everybody, in the order the report lists them.
    public static let everybody = [ada, bruno, chiara, dmitri, emeka, fatima, grace, hiro]
}
