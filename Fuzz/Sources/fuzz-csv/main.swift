// The RFC 4180 reader under every importer, with `,` and `;` as delimiter.
//
// Invariant: records written back with every field quoted read back as the same fields
// (a record that is one empty field is an empty line, which the reader skips by design).
import FuzzSupport
import ShopImport

fuzz { bytes in
    for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";")] {
        let reader = CSVReader(delimiter: delimiter)
        guard let records = try? reader.records(in: bytes) else { continue }
        let fields = records.map(\.fields).filter { $0 != [""] }
        invariant(fields.allSatisfy { !$0.isEmpty }, "a record without fields")

        var written: [UInt8] = []
        for record in fields {
            for (index, field) in record.enumerated() {
                if index > 0 { written.append(delimiter) }
                written.append(UInt8(ascii: "\""))
                for byte in field.utf8 {
                    written.append(byte)
                    if byte == UInt8(ascii: "\"") { written.append(byte) }
                }
                written.append(UInt8(ascii: "\""))
            }
            written.append(UInt8(ascii: "\n"))
        }
        let reread = try? reader.records(in: written).map(\.fields)
        invariant(reread == fields, "quoted rewrite reads back differently: \(fields) → \(String(describing: reread))")

        let first = try? reader.records(in: bytes, limit: 1)
        invariant(first?.map(\.fields) == records.prefix(1).map(\.fields), "limit: 1 differs from the first record")
    }
}
