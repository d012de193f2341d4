import Foundation
import Testing

/// Checks API/CommonCrypto/*.txt against the generated APIListCompiles.swift (which the build compiles: a
/// declaration with another name or type than Apple's fails the build) and reports the coverage per header.
@Suite struct APIListTests {
    /// `<repository>/API/CommonCrypto`.
    static var listDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("API/CommonCrypto", isDirectory: true)
    }

    /// `<header>:<name>` of every declaration line of the lists, by header.
    static func listedDeclarations() throws -> [String: [String]] {
        var byHeader: [String: [String]] = [:]
        let files = try FileManager.default.contentsOfDirectory(atPath: listDirectory.path).filter {
            $0.hasSuffix(".txt")
        }
        for file in files {
            let header = String(file.dropLast(4)) + ".h"
            let text = try String(contentsOf: listDirectory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                #expect(
                    fields.count == 2 || (fields.count == 3 && fields[2].hasPrefix("# left out: ")), "\(file): \(line)")
                byHeader[header, default: []].append("\(header):\(fields[0])")
            }
        }
        return byHeader
    }

    @Test func everyListedDeclarationIsCompiledOrLeftOutWithAReason() throws {
        let listed = try Self.listedDeclarations()
        let all = Set(listed.values.joined())
        #expect(all.count == listed.values.map(\.count).reduce(0, +), "a declaration is listed twice")
        #expect(Self.compiledAndLeftOutAreDisjoint)
        // The generated file is current: it compiles or leaves out exactly the listed lines.
        #expect(
            APIListIndex.compiled.union(APIListIndex.leftOut.keys) == all, "rerun scripts/gen-commoncrypto-api-test.py")
        #expect(APIListIndex.leftOut.values.allSatisfy { !$0.isEmpty }, "every left-out line gives a reason")
        for header in listed.keys.sorted() {
            let lines = listed[header] ?? []
            let covered = lines.filter(APIListIndex.compiled.contains).count
            print("CommonCrypto coverage \(header): \(covered)/\(lines.count)")
        }
        // The headers the brief names are all there.
        let headers = Set(listed.keys)
        for name in [
            "CommonDigest", "CommonHMAC", "CommonCryptor", "CommonKeyDerivation", "CommonRandom",
            "CommonSymmetricKeywrap", "CommonCryptoError",
        ] {
            #expect(headers.contains(name + ".h"))
        }
    }

    static var compiledAndLeftOutAreDisjoint: Bool {
        APIListIndex.compiled.isDisjoint(with: APIListIndex.leftOut.keys)
    }
}
