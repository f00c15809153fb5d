import FuzzDriver
import Foundation
@testable import BlogContent

/// The zones a date without an offset is read in: UTC, one far east, one far west with summer time. A static
/// property, not a top-level constant, which an optimised build keeps in `main`'s frame, out of LeakSanitizer's
/// sight.
enum Zones {
    static let all = ["UTC", "Pacific/Kiritimati", "America/St_Johns"].map { TimeZone(identifier: $0)! }
}

/// libFuzzer's entry: the header date grammar (ISO, day first, month names). Text it cannot read is a Failure with
/// a message, never a trap; the first byte picks the time zone.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    do {
        _ = try DateParser.parse(text, timeZone: Zones.all[Int(data[0]) % Zones.all.count])
    } catch let failure as DateParser.Failure {
        precondition(!failure.message.isEmpty, "a failure without a message")
    } catch {
        preconditionFailure("not a DateParser.Failure: \(error)")
    }
    return 0
}

runFuzzer(fuzz)
