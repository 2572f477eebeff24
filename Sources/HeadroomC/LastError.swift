import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The status codes of the C API (`include/headroom.h`): 0 for success, negative for errors,
/// the message of the latest error on the calling thread in ``headroom_last_error()``.
enum CStatus {
    static let ok: Int32 = 0
    /// An argument is NULL, out of range or not valid (a session's field path says which).
    static let invalidArgument: Int32 = -1
    /// A file could not be read or written.
    static let inputOutput: Int32 = -2
    /// The output buffer is too small; the message says how large it must be.
    static let bufferTooSmall: Int32 = -3
    /// What was asked is not available on this host (no reading yet, no such facility).
    static let unavailable: Int32 = -4
}

/// Each thread's latest error message, as a C string it owns until its next error (freed
/// with the thread).
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// Records `message` for the calling thread and returns `status`.
    @discardableResult
    static func fail(_ status: Int32, _ message: String) -> Int32 {
        free(pthread_getspecific(key))
        pthread_setspecific(key, strdup(message))
        return status
    }

    /// The calling thread's latest message, or an empty string.
    static var message: UnsafePointer<CChar> {
        guard let text = pthread_getspecific(key) else {
            return UnsafeRawPointer(empty.utf8Start).assumingMemoryBound(to: CChar.self)
        }
        return UnsafePointer(text.assumingMemoryBound(to: CChar.self))
    }

    private static let empty: StaticString = ""
}

/// The message of the calling thread's latest failed call; never NULL, valid until that
/// thread's next failed call.
@_cdecl("headroom_last_error")
public func headroomLastError() -> UnsafePointer<CChar> {
    LastError.message
}
