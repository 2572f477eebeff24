import Foundation
import Locking
import Testing

/// The queue between a frame loop that must not wait and a writer thread.
struct BoundedQueueTests {
    @Test("offer refuses when full instead of waiting; take hands elements back in order")
    func refusesWhenFull() {
        let queue = BoundedQueue<Int>(limit: 3)
        #expect((1...4).map { queue.offer($0) } == [true, true, true, false])
        #expect(queue.waiting == 3)
        #expect(queue.take() == 1)
        #expect(queue.offer(5))
        queue.close()
        #expect(!queue.offer(6))
        #expect([queue.take(), queue.take(), queue.take(), queue.take()] == [2, 3, 5, nil])
    }

    @Test("a consumer thread gets every element a producer queued, then nil after close")
    func acrossThreads() async {
        let queue = BoundedQueue<Int>(limit: 4)
        let received = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var values: [Int] = []
                while let value = queue.take() { values.append(value) }
                continuation.resume(returning: values)
            }
            var sent = 0
            while sent < 1000 {
                if queue.offer(sent) { sent += 1 } else { sched_yield() }
            }
            queue.close()
        }
        #expect(received == Array(0..<1000))
    }
}
