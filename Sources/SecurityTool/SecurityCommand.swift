import Foundation

/// Dispatches `security <command> [options]`. Exit codes follow macOS: a failing command exits with its
/// OSStatus & 0xFF, a bad option with 2, an unknown command with 1.
enum SecurityCommand {
    static let usage = """
        Usage: security [-h] command [command-options] [command-args]
            add-generic-password        Add a generic password item.
            add-internet-password       Add an internet password item.
            create-keychain             Create keychains.
            default-keychain            Display the default keychain.
            delete-generic-password     Delete a generic password item.
            delete-internet-password    Delete an internet password item.
            delete-keychain             Delete keychains.
            demo                        Run an end-to-end demonstration of what OpenSecurity implements.
            error                       Display a descriptive message for the given error code(s).
            find-certificate            Find certificates (-a all, -c name, -e e-mail, -p PEM, -Z hashes).
            find-generic-password       Find a generic password item.
            find-identity               Find identities (-p basic|ssl-client|ssl-server, -s string, -v valid only).
            find-internet-password      Find an internet password item.
            help                        Show all commands, or show usage for a command.
            import                      Import a PKCS#12 file or certificates (-k keychain, -P passphrase, -f format).
            list-keychains              Display the keychains (the default one first).
            show-keychain-info          Show the settings of a keychain.
            sync-agent                  Keep a keychain in sync with its circle (runs until stopped).
            sync-join                   Join (or create) a sync circle: -u URL -c circle [keychain].
            sync-leave                  Leave the keychain's sync circle.
            sync-now                    Push and pull every change now.
            sync-status                 Show the circle, members, pending changes and conflicts (-j: JSON).

        Password options: -a account, -s service (generic) or server (internet), -l label, -j comment,
        -D kind, -c creator, -C type; generic: -G generic attribute; internet: -d security domain, -p path,
        -P port, -r protocol, -t authentication type. add: -w password (last without a value: read from
        standard input), -X hexadecimal password, -U update an existing item. find: -g password to stderr,
        -w password only. A trailing operand names the keychain (a path, or a name in the default keychain's
        directory).
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            print(usage)
            return 0
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "add-generic-password": return PasswordCommands.add(.generic, rest)
        case "add-internet-password": return PasswordCommands.add(.internet, rest)
        case "find-generic-password": return PasswordCommands.find(.generic, rest)
        case "find-internet-password": return PasswordCommands.find(.internet, rest)
        case "delete-generic-password": return PasswordCommands.delete(.generic, rest)
        case "delete-internet-password": return PasswordCommands.delete(.internet, rest)
        case "import": return CertificateCommands.importItems(rest)
        case "find-certificate": return CertificateCommands.findCertificate(rest)
        case "find-identity": return CertificateCommands.findIdentity(rest)
        case "create-keychain": return KeychainCommands.create(rest)
        case "delete-keychain": return KeychainCommands.delete(rest)
        case "default-keychain": return KeychainCommands.defaultKeychain(rest)
        case "list-keychains": return KeychainCommands.list(rest)
        case "show-keychain-info": return KeychainCommands.showInfo(rest)
        case "demo": return Demo.run(rest)
        case "error": return ErrorCommand.run(rest)
        case "sync-join": return SyncCommands.join(rest)
        case "sync-leave": return SyncCommands.leave(rest)
        case "sync-status": return SyncCommands.status(rest)
        case "sync-now": return SyncCommands.now(rest)
        case "sync-agent": return SyncCommands.agent(rest)
        case "help", "-h":
            print(usage)
            return 0
        default:
            FileHandle.standardError.write(Data("security: unknown command \"\(command)\"\n".utf8))
            return 1
        }
    }
}
