/// Names a RAW file's kind for people ("Nikon NEF", "Adobe DNG") from its first bytes and its maker.
enum RAWKind {
    static func describe(head: [UInt8], make: String?, dngVersion: Int) -> String {
        if dngVersion > 0 { return "Adobe DNG" }
        func at(_ offset: Int, _ text: String) -> Bool {
            let t = Array(text.utf8)
            return head.count >= offset + t.count && Array(head[offset..<(offset + t.count)]) == t
        }
        if at(6, "HEAPCCDR") { return "Canon CRW" }
        if at(4, "ftypcrx ") { return "Canon CR3" }
        if at(0, "FUJIFILM") { return "Fujifilm RAF" }
        if at(0, "IIRO") || at(0, "IIRS") || at(0, "MMOR") { return "Olympus ORF" }
        if at(0, "IIU\0") { return "Panasonic RW2" }
        if at(0, "\0MRM") { return "Minolta MRW" }
        if at(0, "FOVb") { return "Sigma X3F" }
        if at(8, "CR") { return "Canon CR2" }
        switch make?.lowercased().split(separator: " ").first.map(String.init) {
        case "nikon": return "Nikon NEF"
        case "sony": return "Sony ARW"
        case "pentax", "ricoh": return "Pentax PEF"
        case "samsung": return "Samsung SRW"
        case "kodak", "eastman": return "Kodak RAW"
        case "leaf", "phase": return "Phase One IIQ"
        case "hasselblad": return "Hasselblad 3FR"
        case "epson": return "Epson ERF"
        case "mamiya": return "Mamiya MEF"
        case .some(let maker): return "\(maker.prefix(1).uppercased() + maker.dropFirst()) RAW"
        case nil: return "camera RAW"
        }
    }
}
