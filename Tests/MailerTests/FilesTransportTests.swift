import Foundation
import Mailer
import Synchronization
import Testing

@Suite("Files transport")
struct FilesTransportTests {
    let root: URL

    init() {
        root = FileManager.default.temporaryDirectory.appending(path: "mailer-tests-\(UUID().uuidString)")
    }

    @Test func writesOneEMLFileWhoseBytesEqualTheRenderedMessage() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appending(path: "var/outbox") // does not exist yet
        let written = Mutex<[String]>([])
        let transport = MailTransport.files(directory: directory) { path in written.withLock { $0.append(path) } }
        let message = EmailMessage(
            from: EmailAddress("shop@shop.example"),
            to: [EmailAddress("sule@example.com", displayName: "Şule Öztürk")],
            subject: "Hoş geldiniz",
            textBody: "Merhaba Şule,\nhesabınız hazır.\n",
            htmlBody: "<p>Merhaba Şule</p>",
            messageID: "welcome/7@shop.example",
            date: Date(timeIntervalSince1970: 1_704_164_645)
        )

        try transport.send(message)

        let paths = written.withLock { $0 }
        let path = try #require(paths.first)
        #expect(paths.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [URL(filePath: path).lastPathComponent])
        #expect(URL(filePath: path).lastPathComponent == "20240102T030405Z-welcome_7@shop.example.eml")
        #expect(try Array(Data(contentsOf: URL(filePath: path))) == message.rendered())
    }

    @Test func aFileWhereTheDirectoryShouldBeThrowsAFileError() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let blocker = root.appending(path: "outbox")
        try Data("not a directory".utf8).write(to: blocker)
        let transport = MailTransport.files(directory: blocker)
        let message = EmailMessage(from: EmailAddress("a@example.com"), to: [], subject: "s", textBody: "b")

        let error = try #require(throws: MailError.self) { try transport.send(message) }
        #expect(error.kind == .file)
        #expect(error.curlCode == nil)
    }
}
