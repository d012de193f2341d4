import Foundation
import Testing

@testable import OSecASN1

@Suite struct TimeTests {
    @Test func utcTimeCenturyWindow() throws {
        let fifty = try UTCTime(derEncoded: Array("\u{17}\u{0D}500101000000Z".utf8))
        #expect(fifty.dateTime.year == 1950)
        let fortyNine = try UTCTime(derEncoded: Array("\u{17}\u{0D}491231235959Z".utf8))
        #expect(fortyNine.dateTime.year == 2049)
        #expect(fifty < fortyNine)
        #expect(fifty.secondsSinceEpoch == -631_152_000)
        #expect(try fortyNine.derEncoded() == Array("\u{17}\u{0D}491231235959Z".utf8))
        expectASN1Error(.invalidTime) {
            try UTCTime(ASN1DateTime(year: 2050, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0))
        }
    }

    @Test(arguments: [
        "000229000000Z",  // 2000 is a leap year
        "240229120000Z",
    ])
    func validLeapDays(text: String) throws {
        #expect(try UTCTime(contentBytes: Array(text.utf8)[...]).dateTime.day == 29)
    }

    @Test(arguments: [
        "230229000000Z",  // not a leap year
        "231301000000Z",  // month 13
        "230001000000Z",  // month 0
        "230431000000Z",  // April 31
        "230101240000Z",  // hour 24
        "230101006000Z",  // minute 60
        "230101000060Z",  // second 60
        "2301010000Z",  // missing seconds
        "230101000000",  // missing Z
        "230101000000+0100",  // offset
        "230101000000.5Z",
        "2301010000a0Z",
    ])
    func invalidUTCTimes(text: String) {
        expectASN1Error(.invalidTime) { try UTCTime(contentBytes: Array(text.utf8)[...]) }
    }

    @Test func generalizedTimeRules() throws {
        // 2100 not leap
        expectASN1Error(.invalidTime) { try GeneralizedTime(contentBytes: Array("21000229000000Z".utf8)[...]) }
        let leap = try GeneralizedTime(contentBytes: Array("20000229235959Z".utf8)[...])
        #expect(leap.dateTime.day == 29)
        #expect(try leap.derEncoded() == [0x18, 0x0f] + Array("20000229235959Z".utf8))
        let far = try GeneralizedTime(contentBytes: Array("99991231235959Z".utf8)[...])
        #expect(far.secondsSinceEpoch == 253_402_300_799)
        // Fractional seconds only under the lenient option.
        let fractional = Array("20240101000000.250Z".utf8)[...]
        expectASN1Error(.invalidTime) { try GeneralizedTime(contentBytes: fractional) }
        let lenient = try GeneralizedTime(contentBytes: fractional, rules: .basic)
        #expect(lenient.dateTime.nanoseconds == 250_000_000)
        #expect(try lenient.derEncoded() == [0x18, 0x12] + Array("20240101000000.25Z".utf8))
        for bad in ["20240101000000", "202401010000Z", "20240101000000.Z", "20240101000000+0000", "20240101000000Zx"] {
            expectASN1Error(.invalidTime) { try GeneralizedTime(contentBytes: Array(bad.utf8)[...], rules: .basic) }
        }
    }

    @Test func epochConversionsRoundTrip() throws {
        for seconds: Int64 in [0, 1, 86_399, 86_400, 951_782_400, 1_700_000_000, -1, -62_167_219_200, 253_402_300_799] {
            let dateTime = try ASN1DateTime(secondsSinceEpoch: seconds)
            #expect(dateTime.secondsSinceEpoch == seconds)
        }
        let epoch = try ASN1DateTime(secondsSinceEpoch: 0)
        #expect((epoch.year, epoch.month, epoch.day, epoch.hours) == (1970, 1, 1, 0))
        let leapDay = try ASN1DateTime(secondsSinceEpoch: 951_782_400)
        #expect((leapDay.year, leapDay.month, leapDay.day) == (2000, 2, 29))
        expectASN1Error(.invalidTime) { try ASN1DateTime(secondsSinceEpoch: 253_402_300_800) }
        expectASN1Error(.invalidTime) { try ASN1DateTime(secondsSinceEpoch: Int64.min) }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try ASN1DateTime(date).date == date)
        #expect(
            try UTCTime(secondsSinceEpoch: 1_700_000_000).derEncoded() == [0x17, 0x0d] + Array("231114221320Z".utf8))
    }
}
