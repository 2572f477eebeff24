import Testing
import Units

@testable import Telemetry

/// The connection policy on its own: which connection closes when a bound is exceeded.
@Suite struct ConnectionLedgerTests {
    @Test func aClientOverItsBoundLosesItsOldestIdleConnection() {
        var ledger = ConnectionLedger<Int, String>(totalLimit: 100, perClientLimit: 3)
        #expect(ledger.opened(1, from: "flood").isEmpty)
        #expect(ledger.opened(2, from: "scraper").isEmpty)
        #expect(ledger.opened(3, from: "flood").isEmpty)
        #expect(ledger.opened(4, from: "flood").isEmpty)
        #expect(ledger.opened(5, from: "flood") == [1])
        #expect(ledger.opened(6, from: "flood") == [3])
        #expect(ledger.count(from: "flood") == 3)
        #expect(ledger.count(from: "scraper") == 1)
        #expect(ledger.isIdle(2))
    }

    @Test func overTheTotalTheOldestIdleConnectionOfAllCloses() {
        var ledger = ConnectionLedger<Int, String>(totalLimit: 3, perClientLimit: 3)
        #expect(ledger.opened(1, from: "a").isEmpty)
        #expect(ledger.opened(2, from: "b").isEmpty)
        #expect(ledger.opened(3, from: "c").isEmpty)
        #expect(ledger.opened(4, from: "d") == [1])
        #expect(ledger.count == 3)
        #expect(ledger.count(from: "a") == 0)
    }

    @Test func aConnectionInsideARequestIsNeverClosedAndAnsweredOnesQueueAsNewest() {
        var ledger = ConnectionLedger<Int, String>(totalLimit: 100, perClientLimit: 2)
        _ = ledger.opened(1, from: "a")
        _ = ledger.opened(2, from: "a")
        ledger.requestStarted(1)
        #expect(!ledger.isIdle(1))
        #expect(ledger.opened(3, from: "a") == [2])
        // 1 is answered and idle again, now newer than 3.
        ledger.requestEnded(1)
        #expect(ledger.opened(4, from: "a") == [3])
    }

    @Test func theNewConnectionIsRefusedWhenNothingElseIsIdle() {
        var ledger = ConnectionLedger<Int, String>(totalLimit: 2, perClientLimit: 5)
        _ = ledger.opened(1, from: "a")
        _ = ledger.opened(2, from: "b")
        ledger.requestStarted(1)
        ledger.requestStarted(2)
        #expect(ledger.opened(3, from: "c") == [3])
        #expect(ledger.count == 2)
    }

    @Test func streamsGiveWayToANewConnectionOnceNothingIsIdleOldestFirst() {
        var ledger = ConnectionLedger<Int, String>(totalLimit: 100, perClientLimit: 3)
        // Three readers from loopback hold every slot of the address.
        for reader in 1...3 {
            _ = ledger.opened(reader, from: "loopback")
            ledger.requestStarted(reader)
            ledger.streamStarted(reader)
            #expect(ledger.isStreaming(reader))
        }
        // A scrape from the same address: the oldest reader gives way (it may resume).
        #expect(ledger.opened(4, from: "loopback") == [1])
        ledger.requestStarted(4)
        // Idle connections go before streams.
        ledger.requestEnded(4)
        #expect(ledger.opened(5, from: "loopback") == [4])
        ledger.requestStarted(5)
        // A stream that ended is idle again, and goes first.
        ledger.requestEnded(3)
        #expect(!ledger.isStreaming(3))
        #expect(ledger.opened(6, from: "loopback") == [3])
        // A request in progress (not a stream) is never given up.
        ledger.requestStarted(6)
        #expect(ledger.opened(7, from: "loopback") == [2])
        #expect(ledger.opened(8, from: "loopback") == [7])
    }

    @Test func closingAConnectionAlreadyGivenUpChangesNothing() {
        var ledger = ConnectionLedger<Int, String>(totalLimit: 1, perClientLimit: 1)
        _ = ledger.opened(1, from: "a")
        #expect(ledger.opened(2, from: "a") == [1])
        ledger.closed(1)
        ledger.requestStarted(1)
        ledger.requestEnded(1)
        #expect(ledger.count == 1)
        #expect(ledger.isIdle(2))
        #expect(!ledger.isIdle(1))
    }

    /// Any sequence of events keeps both bounds, closes only idle connections, and closes the
    /// new connection only when its client has no other idle one.
    @Test(arguments: [(3, 2), (5, 5), (8, 3), (1, 1)])
    func boundsHoldAndBusyConnectionsSurviveAnySequence(totalLimit: Int, perClientLimit: Int) {
        var ledger = ConnectionLedger<Int, Int>(
            totalLimit: totalLimit, perClientLimit: perClientLimit)
        var random = SeededGenerator(seed: UInt64(totalLimit * 31 + perClientLimit))
        var open: [Int: (client: Int, isBusy: Bool)] = [:]
        for connection in 0..<2000 {
            switch random.next() % 4 {
            case 0, 1:
                let client = Int(random.next() % 4)
                let clientHadIdle = open.values.contains { $0.client == client && !$0.isBusy }
                let closing = ledger.opened(connection, from: client)
                open[connection] = (client, false)
                for closed in closing {
                    #expect(open[closed]?.isBusy == false, "closed a busy or unknown connection")
                    open[closed] = nil
                }
                #expect(!closing.contains(connection) || !clientHadIdle)
            case 2:
                if let (connection, state) = open.randomElement(using: &random) {
                    if state.isBusy {
                        ledger.requestEnded(connection)
                    } else {
                        ledger.requestStarted(connection)
                    }
                    open[connection]?.isBusy.toggle()
                }
            default:
                if let connection = open.keys.randomElement(using: &random) {
                    ledger.closed(connection)
                    open[connection] = nil
                }
            }
            #expect(ledger.count == open.count)
            #expect(ledger.count <= totalLimit)
            for client in 0..<4 {
                #expect(ledger.count(from: client) <= perClientLimit)
            }
        }
    }
}
