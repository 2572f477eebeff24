import Foundation
import Locking
import Testing

/// Blocking work off the cooperative pool, and a result delivered once.
struct BlockingWorkTests {
    @Test("work that waits for other work gets a worker of its own: no deadlock")
    func waitingWorkGetsAWorker() async {
        let handedOver = Completion<Int>()
        async let waiter = BlockingWork.run { handedOver.wait() + 1 }
        async let giver = BlockingWork.run {
            handedOver.complete(41)
            return 0
        }
        #expect(await (waiter, giver) == (42, 0))
    }

    @Test("many calls in turn are all answered")
    func callsInTurn() async {
        var sum = 0
        for index in 0..<200 { sum += await BlockingWork.run { index } }
        #expect(sum == 199 * 200 / 2)
    }

    @Test("a completion reaches tasks and threads waiting before and after; the first value wins")
    func completion() async {
        let completion = Completion<String>()
        async let early = completion.value
        async let thread = BlockingWork.run { completion.wait() }
        async let completed: Void = BlockingWork.run { completion.complete("first") }
        await completed
        completion.complete("second")
        #expect(await early == "first")
        #expect(await thread == "first")
        #expect(await completion.value == "first")
    }
}
