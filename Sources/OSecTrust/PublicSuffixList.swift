import Foundation

/// The Public Suffix List, used to refuse wildcards directly over a public suffix (`*.co.uk`, `*.github.io`),
/// as Apple's SSLHostname check and the CA/Browser Forum baseline (§3.2.2.6) require.
///
/// Loaded once from the distribution's copy (Debian/Ubuntu package `publicsuffix`, also the path used by Fedora's
/// `publicsuffix-list`). Without the file only single-label suffixes (TLDs) and a small built-in list are refused.
package struct PublicSuffixList: Sendable {
    private let rules: Set<String>
    private let wildcards: Set<String>
    private let exceptions: Set<String>

    /// Where distributions install the Public Suffix List (Debian/Ubuntu package `publicsuffix`; the older file name).
    package static let paths = [
        "/usr/share/publicsuffix/public_suffix_list.dat", "/usr/share/publicsuffix/effective_tld_names.dat",
    ]

    /// Used when no list file exists: common multi-label suffixes.
    static let builtIn: [String] = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "net.uk", "com.au", "net.au", "org.au", "co.jp", "ne.jp",
        "or.jp", "co.nz", "com.br", "com.cn", "com.tw", "com.hk", "co.in", "co.za", "com.mx", "co.kr",
        "github.io", "s3.amazonaws.com", "herokuapp.com", "blogspot.com", "appspot.com", "cloudfront.net",
        "azurewebsites.net", "netlify.app", "vercel.app", "pages.dev", "workers.dev",
    ]

    /// The list of the first readable file of ``paths``, else the built-in fallback; loaded once.
    package static let shared: PublicSuffixList = {
        for path in paths {
            if let data = FileManager.default.contents(atPath: path) {
                return PublicSuffixList(text: String(decoding: data, as: UTF8.self))
            }
        }
        return PublicSuffixList(text: builtIn.joined(separator: "\n"))
    }()

    /// Parses the list's text format (one rule a line, `//` comments, `*.` and `!` rules).
    package init(text: String) {
        var rules = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            if line.isEmpty || line.hasPrefix("//") { continue }
            let rule = line.lowercased()
            if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else {
                rules.insert(rule)
            }
        }
        self.rules = rules
        self.wildcards = wildcards
        self.exceptions = exceptions
    }

    /// Whether `domain` (lower-case, no trailing dot, ASCII/A-labels) is itself a public suffix.
    /// Every single-label name counts as one (PSL's implicit `*` rule).
    package func isPublicSuffix(_ domain: String) -> Bool {
        guard let dot = domain.firstIndex(of: ".") else { return true }
        if exceptions.contains(domain) { return false }
        if rules.contains(domain) { return true }
        return wildcards.contains(String(domain[domain.index(after: dot)...]))
    }
}
