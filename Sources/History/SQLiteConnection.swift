import CSQLite
import Glibc

/// One SQLite connection and the few calls the history needs; used by one owner at a time
/// (``HistoryStore`` keeps it behind a lock).
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?

    /// Opens (creating if needed) the database at `path`; `readOnly` opens an existing one as
    /// immutable (SQLite then needs neither a lock nor WAL's shared-memory file, which a
    /// read-only mount cannot give).
    init(path: String, readOnly: Bool = false) throws(HistoryError) {
        self.path = path
        let flags =
            readOnly
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let name = readOnly ? Self.immutableURI(path) : path
        let result = sqlite3_open_v2(name, &handle, flags, nil)
        guard result == SQLITE_OK else {
            let problem =
                handle.map { String(cString: sqlite3_errmsg($0)) }
                ?? String(cString: sqlite3_errstr(result))
            sqlite3_close(handle)
            handle = nil
            throw HistoryError(path: path, operation: "open", problem: problem)
        }
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    }

    /// How long a statement waits for another connection's lock before it fails busy.
    static let busyTimeoutMilliseconds: Int32 = 5000

    deinit {
        sqlite3_close_v2(handle)
    }

    /// `file:PATH?immutable=1`, the path percent-encoded where a URI needs it.
    private static func immutableURI(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x21, 0x7F...:
                encoded += byte < 0x10 ? "%0" : "%"
                encoded += String(byte, radix: 16, uppercase: true)
            default: encoded.unicodeScalars.append(UnicodeScalar(byte))
            }
        }
        return "file:\(encoded)?immutable=1"
    }

    /// Runs SQL statements that return nothing of interest.
    func execute(_ sql: String, operation: String) throws(HistoryError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(operation) }
    }

    /// ``execute(_:operation:)``, tried again while the database is busy, for up to
    /// ``busyTimeoutMilliseconds``. For the statements SQLite answers busy at once, without
    /// calling its busy handler: switching to WAL needs the exclusive lock, and a connection
    /// holding a shared one while another holds the reserved one would deadlock waiting, so
    /// SQLite leaves the retry to the caller (seen with eight processes opening one new
    /// history at once). Between tries it pauses 10 ms, as SQLite's own busy handler does.
    func executeWaitingWhileBusy(_ sql: String, operation: String) throws(HistoryError) {
        let pause: Int32 = 10
        var waited: Int32 = 0
        while true {
            let result = sqlite3_exec(handle, sql, nil, nil, nil)
            if result == SQLITE_OK { return }
            guard result & 0xFF == SQLITE_BUSY, waited < Self.busyTimeoutMilliseconds else {
                throw error(operation)
            }
            usleep(UInt32(pause) * 1000)
            waited += pause
        }
    }

    /// A prepared statement for `sql`.
    func prepare(_ sql: String, operation: String) throws(HistoryError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement
        else { throw error(operation) }
        return SQLiteStatement(statement, connection: self, operation: operation)
    }

    /// The row id of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Result>(
        _ operation: String, _ body: () throws(HistoryError) -> Result
    ) throws(HistoryError) -> Result {
        try execute("BEGIN IMMEDIATE", operation: operation)
        do {
            let result = try body()
            try execute("COMMIT", operation: operation)
            return result
        } catch {
            try? execute("ROLLBACK", operation: operation)
            throw error
        }
    }

    /// The error SQLite reports for the last call, for `operation`.
    func error(_ operation: String) -> HistoryError {
        HistoryError(
            path: path, operation: operation,
            problem: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection")
    }
}

/// A prepared statement: bind, step through rows, read columns.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection
    private let operation: String

    init(_ statement: OpaquePointer, connection: SQLiteConnection, operation: String) {
        self.statement = statement
        self.connection = connection
        self.operation = operation
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Binds values to the parameters `?1…?n`, in order, after resetting the statement.
    func bind(_ values: [SQLiteValue]) throws(HistoryError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32 =
                switch value {
                case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
                case .real(let real): sqlite3_bind_double(statement, index, real)
                case .text(let text):
                    sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
                case .null: sqlite3_bind_null(statement, index)
                }
            guard result == SQLITE_OK else { throw connection.error(operation) }
        }
    }

    /// Advances to the next row; `false` when there is none.
    func step() throws(HistoryError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(operation)
        }
    }

    /// Runs the statement with `values` to completion.
    func run(_ values: [SQLiteValue]) throws(HistoryError) {
        try bind(values)
        while try step() {}
    }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func text(_ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }
}

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}
