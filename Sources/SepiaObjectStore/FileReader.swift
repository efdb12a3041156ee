import Foundation

/// A file opened for reading at offsets: the source of an upload.
struct FileReader: ~Copyable {
    let path: String
    let size: Int
    private let fd: Int32

    init(path: String) throws(S3Error) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw S3Error(.configuration, "cannot open the file to upload: \(String(cString: strerror(errno)))", subject: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            Foundation.close(fd)
            throw S3Error(.configuration, "cannot read the file to upload: \(message)", subject: path)
        }
        self.path = path
        self.fd = fd
        size = Int(info.st_size)
    }

    /// `count` bytes from `offset`; fails if the file is shorter (it changed while it was uploaded).
    func read(at offset: Int, count: Int) throws(S3Error) -> Data {
        var data = Data(count: count)
        var done = 0
        let failure: Int32 = data.withUnsafeMutableBytes { raw in
            while done < count {
                let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { return -1 }
                done += n
            }
            return 0
        }
        if failure == -1 { throw S3Error(.configuration, "the file got shorter while it was uploaded", subject: path) }
        if failure != 0 { throw S3Error(.configuration, "cannot read the file to upload: \(String(cString: strerror(failure)))", subject: path) }
        return data
    }

    func close() {
        Foundation.close(fd)
    }
}
