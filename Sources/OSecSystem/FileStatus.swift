#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path or descriptor names: device and inode number. Two opens name the same file exactly when their
/// identities are equal; a file that was deleted and re-created under the same path has a new identity.
package struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    /// `st_dev`.
    package let device: UInt64
    /// `st_ino`.
    package let inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// `device:inode`.
    package var description: String { "\(device):\(inode)" }
}

/// What `fstat` or `lstat` reports about a file, as Swift values.
package struct FileStatus: Sendable, Equatable {
    /// The file's type.
    package enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, other
    }

    /// Device and inode.
    package let identity: FileIdentity
    /// The owner's user id (`st_uid`).
    package let owner: UInt32
    /// The permission bits (`st_mode & 07777`).
    package let permissions: UInt16
    /// The file's type.
    package let kind: Kind
    /// The size in bytes.
    package let size: Int64

    /// Permission bits granting anything to the group or to other users (`0o077` of ``permissions``).
    package var groupOrOtherPermissions: UInt16 { permissions & 0o077 }

    init(_ raw: stat) {
        identity = FileIdentity(device: UInt64(raw.st_dev), inode: UInt64(raw.st_ino))
        owner = UInt32(raw.st_uid)
        permissions = UInt16(truncatingIfNeeded: raw.st_mode & 0o7777)
        switch raw.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(raw.st_size)
    }
}
