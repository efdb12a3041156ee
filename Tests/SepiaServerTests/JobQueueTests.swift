import Foundation
import HTTPTypes
import HummingbirdTesting
import SepiaCodecs
import SepiaImage
import Synchronization
import Testing

@testable import SepiaLibrary
@testable import SepiaServer

/// The job queue in the server database (SQLite here, PostgreSQL when the suites run there): each job is
/// taken by one worker at a time, a lease that runs out hands it to another, failures back off and stop,
/// and an upload's preview is made by the queue after the upload answered.
@Suite("Job queue")
struct JobQueueTests {
    /// A server's services with no job workers of its own, so that the test alone takes jobs.
    private func services() throws -> ServerServices {
        try TestServer { $0.jobWorkers = 0 }.buildWithServices().services
    }

    @Test("jobs are taken oldest first, once each, and a job added twice is one job")
    func takenOnce() throws {
        let queue = try services().jobs
        let start = Date()
        for (offset, subject) in ["a", "b", "c"].enumerated() {
            try queue.enqueue(.renditions, library: "", subject: subject, now: start + Double(offset))
        }
        try queue.enqueue(.renditions, library: "", subject: "a", now: start + 5)
        let now = start + 10
        let first = try #require(try queue.take(lease: 60, now: now))
        let second = try #require(try queue.take(lease: 60, now: now))
        let third = try #require(try queue.take(lease: 60, now: now))
        #expect([first.subject, second.subject, third.subject] == ["a", "b", "c"])
        #expect(first.attempts == 1)
        #expect(try queue.take(lease: 60, now: now) == nil)
        for job in [first, second, third] { try queue.complete(job) }
        #expect(try queue.counts().waiting == 0)
    }

    @Test("a job whose worker died is taken again by another once its lease runs out")
    func leaseRunsOut() throws {
        let services = try services()
        let dying = JobQueue(database: services.accounts.database, worker: "dying")
        let other = JobQueue(database: services.accounts.database, worker: "other")
        let start = Date()
        try dying.enqueue(.renditions, library: "", subject: "asset", now: start)
        let taken = try #require(try dying.take(lease: 30, now: start))
        // The worker never finishes. Before the lease runs out no one else may take the job.
        #expect(try other.take(lease: 30, now: start + 29) == nil)
        let again = try #require(try other.take(lease: 30, now: start + 31))
        #expect(again.id == taken.id)
        #expect(again.attempts == 2)
        try other.complete(again)
        #expect(try other.counts().waiting == 0)
    }

    @Test("eight workers taking at once share 200 jobs without taking one twice")
    func concurrentTakers() throws {
        let services = try services()
        let start = Date()
        for index in 0..<200 { try services.jobs.enqueue(.renditions, library: "", subject: "asset-\(index)", now: start) }
        let taken = TakenJobs()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let queue = JobQueue(database: services.accounts.database, worker: "worker-\(worker)")
            while let job = try? queue.take(lease: 60) {
                taken.add(job.subject)
                _ = try? queue.complete(job)
            }
        }
        let subjects = taken.all
        #expect(subjects.count == 200)
        #expect(Set(subjects).count == 200)
        #expect(try services.jobs.counts().waiting == 0)
    }

    @Test("a failing job waits longer before each retry and stops after five attempts, keeping its error")
    func failuresBackOff() throws {
        let queue = try services().jobs
        var now = Date()
        try queue.enqueue(.renditions, library: "", subject: "broken", now: now)
        for attempt in 1...5 {
            let job = try #require(try queue.take(lease: 60, now: now), "attempt \(attempt)")
            #expect(job.attempts == attempt)
            try queue.fail(job, error: "cannot decode attempt \(attempt)", now: now)
            // Not again before its delay (10 s × attempts²).
            #expect(try queue.take(lease: 60, now: now + 10 * Double(attempt * attempt) - 1) == nil)
            now += 10 * Double(attempt * attempt) + 1
        }
        #expect(try queue.take(lease: 60, now: now + 3600) == nil)
        let failed = try queue.failed()
        #expect(failed.map(\.job.subject) == ["broken"])
        #expect(failed.first?.error == "cannot decode attempt 5")
        #expect(try queue.counts() == (waiting: 0, failed: 1))
    }

    @Test("a job given back on shutdown is due at once and its attempt is not counted; one moved to the long lane is for its workers only")
    func releasedAndMoved() throws {
        let queue = try services().jobs
        let now = Date()
        try queue.enqueue(.playableVideo, library: "", subject: "clip", now: now)
        for _ in 0..<(queue.maximumAttempts + 2) {
            let job = try #require(try queue.take(lease: 60, now: now))
            #expect(job.attempts == 1)
            try queue.release(job, now: now)
        }
        let job = try #require(try queue.take(lease: 60, now: now))
        try queue.move(job, to: .long, now: now)
        #expect(try queue.take(.quick, lease: 60, now: now + 3600) == nil)
        let long = try #require(try queue.take(.long, lease: 60, now: now))
        #expect(long.id == job.id && long.lane == .long && long.attempts == 1)
        #expect(try queue.running(.playableVideo, now: now) == [])
        #expect(try queue.extend(long, lease: 60, progress: 0.5, now: now))
        #expect(try queue.running(.playableVideo, now: now).map(\.progress) == [0.5])
        try queue.complete(long)
        #expect(try queue.counts() == (waiting: 0, failed: 0))
    }

    @Test("a job that fails for good is never taken again and keeps its reason; a job withdrawn is no longer its worker's")
    func failedForGood() throws {
        let services = try services()
        let queue = services.jobs
        let now = Date()
        try queue.enqueue(.playableVideo, library: "u1", subject: "refused", now: now)
        let job = try #require(try queue.take(lease: 60, now: now))
        try queue.failForGood(job, error: "refused.3gp: the sample table points 398 998 samples at the same bytes")
        #expect(try queue.take(lease: 60, now: now + 86_400 * 365) == nil)
        #expect(try queue.counts() == (waiting: 0, failed: 1))
        #expect(try queue.failure(of: .playableVideo, library: "u1", subject: "refused")?.contains("398 998") == true)
        #expect(try queue.failure(of: .playableVideo, library: "", subject: "refused") == nil)
        // Asked for again, it stays failed.
        try queue.enqueue(.playableVideo, library: "u1", subject: "refused", now: now + 10)
        #expect(try queue.take(lease: 60, now: now + 20) == nil)

        // Another server took a job whose lease ran out: the first one's renewal says it is no longer its own.
        let first = JobQueue(database: services.accounts.database, worker: "first")
        let second = JobQueue(database: services.accounts.database, worker: "second")
        try first.enqueue(.playableVideo, library: "", subject: "clip", now: now)
        let taken = try #require(try first.take(lease: 30, now: now))
        #expect(try first.extend(taken, lease: 30, now: now + 10))
        let retaken = try #require(try second.take(lease: 30, now: now + 41))
        #expect(try !first.extend(taken, lease: 30, progress: 0.4, now: now + 42))
        try second.complete(retaken)
        #expect(try !second.extend(retaken, lease: 30, now: now + 43), "a job done is no one's")
    }

    @Test(
        "a job asked for again while it runs is due again once it is done; one that failed for good is revived; a run that continues goes behind the jobs due"
    )
    func requestedAgain() throws {
        let queue = try services().jobs
        let now = Date()
        try queue.request(.faces, library: "", subject: "", now: now)
        try queue.request(.faces, library: "", subject: "", now: now + 1)
        let first = try #require(try queue.take(lease: 60, now: now + 2))
        #expect(first.kind == .faces && first.requested == (now + 1).timeIntervalSince1970)
        // Asked for during the run: done, and due again at once, attempts back.
        try queue.request(.faces, library: "", subject: "", now: now + 3)
        #expect(try queue.take(lease: 60, now: now + 3) == nil, "taken once at a time")
        #expect(try !queue.complete(first, now: now + 4))
        let second = try #require(try queue.take(lease: 60, now: now + 4))
        #expect(second.id == first.id && second.attempts == 1)
        // Not asked for again: gone.
        #expect(try queue.complete(second, now: now + 5))
        #expect(try queue.counts() == (waiting: 0, failed: 0))

        // A run that leaves the rest for later goes behind what is due already, keeping its progress.
        try queue.request(.faces, library: "u1", subject: "", now: now)
        let run = try #require(try queue.take(lease: 60, now: now))
        #expect(try queue.extend(run, lease: 60, progress: 0.5, now: now))
        try queue.enqueue(.renditions, library: "u1", subject: "photo", now: now + 1)
        try queue.requeue(run, now: now + 2)
        #expect(try queue.reportedProgress(.faces) == ["u1": 0.5])
        #expect(try queue.take(lease: 60, now: now + 2)?.kind == .renditions)
        let next = try #require(try queue.take(lease: 60, now: now + 2))
        #expect(next.id == run.id && next.attempts == 1)
        try queue.failForGood(next, error: "the library cannot be read")
        #expect(try queue.reportedProgress(.faces).isEmpty)
        // Failed for good, and asked for again: what it works on changed, so it is tried again.
        try queue.request(.faces, library: "u1", subject: "", now: now + 10)
        let revived = try #require(try queue.take(lease: 60, now: now + 10))
        #expect(revived.id == run.id && revived.attempts == 1)
    }

    @Test("a failure that will not change (a refused file, a budget) is for good; storage, the database, a deadline on a busy machine are retried")
    func failureKinds() {
        let refused = LibraryError.unreadable(CodecError(.corruptData, "the sample table points 398 998 samples at the same bytes"), file: "a.3gp")
        let overBudget = LibraryError.unreadable(CodecError(.limitExceeded, "the encode used 61 CPU seconds"), file: "a.3gp")
        #expect(JobFailure.isPermanent(refused) && JobFailure.isPermanent(overBudget))
        #expect(JobFailure.isPermanent(CodecError(.unsupportedFeature, "no decoder")))
        let slow = LibraryError.unreadable(CodecError(.timedOut, "reading took longer than 15 s"), file: "a.3gp")
        let unreadable = LibraryError.unreadable(CodecError(.fileSystem, "cannot open the file"), file: "a.3gp")
        for transient: any Error in [
            slow, unreadable, LibraryError(.storageUnavailable, "the bucket cannot be reached"), LibraryError(.database, "busy"),
            LibraryError(.fileSystem, "disk full"), SQLFailure.unavailable("connection refused"), CancellationError(),
        ] {
            #expect(!JobFailure.isPermanent(transient), "\(transient)")
        }
    }

    @Test("an upload answers with its thumbnail made, and the queue makes its preview")
    func uploadPreviewByTheQueue() async throws {
        try await TestServer { $0.jobPollInterval = .milliseconds(100) }.withOwnerAndServices { owner, services in
            let id = try await owner.uploadNew(11)
            let library = try services.libraries.openOwnerLibrary().library
            let thumbnail = RenditionKey(assetID: id, version: "original", size: RenditionRenderer.thumbnail, mode: .aspectFit)
            let preview = RenditionKey(assetID: id, version: "original", size: RenditionRenderer.preview, mode: .aspectFit)
            #expect(library.imageStore.diskKeys(assetID: id, version: "original").contains(thumbnail))
            let deadline = Date() + 120
            while !library.imageStore.diskKeys(assetID: id, version: "original").contains(preview), Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(library.imageStore.diskKeys(assetID: id, version: "original").contains(preview))
            // The job is finished in the database just after its rendition is stored: wait for that too.
            while try services.jobs.counts().waiting != 0, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try services.jobs.counts().waiting == 0)
        }
    }

    @Test("with no worker the preview waits in the queue, and is rendered when it is asked for first")
    func previewOnDemandBeforeTheQueue() async throws {
        try await TestServer { $0.jobWorkers = 0 }.withOwnerAndServices { owner, services in
            let id = try await owner.uploadNew(12)
            // Its preview, and the library's faces.
            #expect(try services.jobs.counts().waiting == 2)
            let response = try await owner.request(.get, "/api/v1/assets/\(id)/image?size=1440")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/jpeg")
            // The job still runs later, finds the preview made, and is done without rendering it again.
            let job = try #require(try services.jobs.take(lease: 60))
            #expect(try await services.libraries.openOwnerLibrary().library.prepareStandardRenditions(ofAsset: id) == false)
            try services.jobs.complete(job)
        }
    }
}

/// Subjects taken by concurrent workers.
private final class TakenJobs: Sendable {
    private let subjects = Mutex<[String]>([])

    func add(_ subject: String) {
        subjects.withLock { $0.append(subject) }
    }

    var all: [String] { subjects.withLock { $0 } }
}
