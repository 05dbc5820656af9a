import FirestoreModel
import FirestoreRPC

extension Target {
}
