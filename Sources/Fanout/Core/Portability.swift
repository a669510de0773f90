#if FANOUT_PORTABLE || !(os(Linux) && arch(x86_64))
    /// Whether this build takes its layout-dependent fast paths, which read or write a value's bytes where one
    /// platform's Swift ABI puts them (`Documentation/Portability.md` lists each, with its portable path): `false`
    /// here, so that each takes its portable path, which uses only what the language guarantees.
    @usableFromInline @_alwaysEmitIntoClient
    package var usesLayoutFastPaths: Bool { false }
#else
    /// Whether this build takes its layout-dependent fast paths: `true` on Linux x86-64, where they are built and
    /// tested, unless `FANOUT_PORTABLE` is defined (`swift build -Xswiftc -DFANOUT_PORTABLE`). A compile-time constant.
    @usableFromInline @_alwaysEmitIntoClient
    package var usesLayoutFastPaths: Bool { true }
#endif
