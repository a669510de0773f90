import Foundation

/// Writing a file so that readers see either the old contents or the new,
/// never a truncated mix: write a temporary file beside it, flush it, then
/// rename it over the destination.
public enum AtomicFile {
    /// Writes `contents` to `path` atomically, creating parent directories.
    ///
    /// - Throws: When the directory cannot be created or the file cannot be
    ///   written or renamed; the destination is then unchanged.
    public static func write(_ contents: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        // Only a temporary file this call created is removed on failure.
        let handle = try createExclusively(temporary.path)
        do {
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(contents.utf8))
            try handle.synchronize()
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "rename to \(path): \(reason)"])
        }
    }

    private static func createExclusively(_ path: String) throws -> FileHandle {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "create \(path): \(String(cString: strerror(errno)))"])
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
