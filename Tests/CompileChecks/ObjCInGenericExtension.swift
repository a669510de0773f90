// A mistake scripts/typecheck-apple must catch: an @objc method in an extension of a generic class, which the
// Objective-C runtime cannot call. A generic proxy cannot carry a protocol's @objc methods; a subclass of
// DelegateProxy can.
// expected-error: extensions of generic classes cannot contain '@objc' members
import Fanout
import UIKit

final class GenericProxy<Schema: DelegateSchema>: DelegateProxy {}

extension GenericProxy {
    @objc func scrollViewDidScroll(_ scrollView: UIScrollView) {}
}
