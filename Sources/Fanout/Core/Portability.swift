/// Whether this build of Fanout takes its layout-dependent fast paths: the
/// ones that read or write a value's bytes where the Swift ABI of one
/// platform puts them (`Documentation/Portability.md` lists each, with what
/// it saves and its portable path).
///
/// They are taken only where they have been built and tested: Linux on
/// x86-64. Everywhere else, and in any build with the compilation condition
/// `FANOUT_PORTABLE` (`swift build -Xswiftc -DFANOUT_PORTABLE`), every one of
/// them takes its portable path, which uses only what the language
/// guarantees. A constant, resolved when Fanout is compiled, so an
/// `@inlinable` use costs nothing.
@usableFromInline
internal enum Portability {
    #if FANOUT_PORTABLE || !(os(Linux) && arch(x86_64))
        /// The portable paths are taken.
        @inlinable
        internal static var usesLayoutFastPaths: Bool { false }
    #else
        /// The fast paths are taken (Linux x86-64, where they are tested).
        @inlinable
        internal static var usesLayoutFastPaths: Bool { true }
    #endif
}
