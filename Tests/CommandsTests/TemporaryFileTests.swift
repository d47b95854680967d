import Platform
import Testing

/// The files an output is written into before it takes its place: new, private, and never
/// inherited by a program another thread starts (which would hold the output's lock).
@Suite("Temporary files")
struct TemporaryFileTests {
    @Test("a temporary file is new, 0600, closed on exec, and named from the template")
    func madeClosedOnExec() throws {
        let prefix = "/tmp/colourful-ball-temporary-test-\(getpid())-"
        var names: Set<[UInt8]> = []
        for _ in 0..<20 {
            var template = Array((prefix + "XXXXXX").utf8)
            let descriptor = makeTemporaryFile(&template)
            try #require(descriptor >= 0)
            defer {
                closeDescriptor(descriptor)
                unlink(String(decoding: template, as: UTF8.self))
            }
            #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
            #expect(template.count == prefix.utf8.count + 6)
            #expect(template.prefix(prefix.utf8.count).elementsEqual(prefix.utf8))
            #expect(Array(template.suffix(6)) != Array("XXXXXX".utf8), "the X are replaced")
            var status = stat()
            #expect(fstat(descriptor, &status) == 0 && status.st_mode & 0o777 == 0o600)
            names.insert(template)
        }
        #expect(names.count == 20, "each name is new")
    }

    @Test("a template without six X at its end is refused (EINVAL), as mkstemp refuses it")
    func badTemplate() {
        var template = Array("/tmp/colourful-ball-no-x".utf8)
        #expect(makeTemporaryFile(&template) == -1 && errno == EINVAL)
    }
}
