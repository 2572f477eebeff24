import Locking
import Testing

/// The subscriber table behind the event streams.
struct BroadcastTests {
    @Test("every subscriber gets every element in order, and finish ends the streams")
    func fansOut() async {
        let broadcast = Broadcast<Int>()
        let first = broadcast.subscribe()
        let second = broadcast.subscribe()
        for value in 1...3 { broadcast.yield(value) }
        broadcast.finish()
        var a: [Int] = []
        for await value in first { a.append(value) }
        var b: [Int] = []
        for await value in second { b.append(value) }
        #expect(a == [1, 2, 3])
        #expect(b == [1, 2, 3])
    }

    @Test("after finish a new subscriber gets later elements; after close it gets none")
    func finishAndClose() async {
        let broadcast = Broadcast<Int>()
        broadcast.finish()
        let later = broadcast.subscribe()
        broadcast.yield(7)
        broadcast.close()
        var values: [Int] = []
        for await value in later { values.append(value) }
        #expect(values == [7])
        let closed = broadcast.subscribe()
        broadcast.yield(8)
        var none: [Int] = []
        for await value in closed { none.append(value) }
        #expect(none.isEmpty)
    }
}
