// Sources/PropertyList/OpenStep/XcodeProjectComments.swift - The `/* name */` comments Xcode writes
// after object ids in `project.pbxproj`, derived from the objects alone (so a new or renamed object
// gets the comment Xcode would give it).

extension XcodeProjectWriter {
    /// The comment of every object id that has one.
    struct Comments {
        var byID: [String: String] = [:]

        init(_ root: PlistValue, projectName: String) {
            guard let objects = root["objects"]?.dictionaryValue else { return }
            var table: [String: PlistDictionary] = [:]
            for entry in objects.entries {
                if let id = entry.key.stringValue, let object = entry.value.dictionaryValue { table[id] = object }
            }
            // The build phase of each build file, and the owner of each configuration list.
            var phaseOfFile: [String: String] = [:]
            var ownerOfList: [String: (isa: String, name: String)] = [:]
            for entry in objects.entries {
                guard let object = entry.value.dictionaryValue, let isa = object["isa"]?.stringValue else { continue }
                if let phase = Comments.phaseName(isa, object), let files = object["files"]?.arrayValue {
                    for file in files {
                        if let id = file.stringValue, phaseOfFile[id] == nil { phaseOfFile[id] = phase }
                    }
                }
                if let list = object["buildConfigurationList"]?.stringValue {
                    let name = isa == "PBXProject" ? projectName : (object["name"]?.stringValue ?? "")
                    ownerOfList[list] = (isa, name)
                }
            }
            for (id, object) in table {
                guard let isa = object["isa"]?.stringValue else { continue }
                let comment: String?
                switch isa {
                case "PBXBuildFile":
                    var file: String? = nil
                    if let ref = object["fileRef"]?.stringValue {
                        file = table[ref].flatMap(Comments.elementName)
                    } else if let ref = object["productRef"]?.stringValue {
                        file = table[ref]?["productName"]?.stringValue
                    }
                    let name = file ?? "(null)"
                    comment = phaseOfFile[id].map { "\(name) in \($0)" } ?? name
                case "PBXProject":
                    comment = "Project object"
                case "XCConfigurationList":
                    comment = ownerOfList[id].map { "Build configuration list for \($0.isa) \"\($0.name)\"" }
                case "XCRemoteSwiftPackageReference":
                    var name = object["repositoryURL"]?.stringValue ?? ""
                    if let slash = name.lastIndex(of: "/") { name = String(name[name.index(after: slash)...]) }
                    if name.hasSuffix(".git") { name.removeLast(4) }
                    comment = "\(isa) \"\(name)\""
                case "XCLocalSwiftPackageReference":
                    comment = "\(isa) \"\(object["relativePath"]?.stringValue ?? "")\""
                case "XCSwiftPackageProductDependency":
                    comment = object["productName"]?.stringValue
                case "PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget", "XCBuildConfiguration":
                    comment = object["name"]?.stringValue
                case "PBXFileReference", "PBXGroup", "PBXVariantGroup", "XCVersionGroup", "PBXReferenceProxy",
                    "PBXFileSystemSynchronizedRootGroup":
                    comment = Comments.elementName(object)
                default:
                    comment = Comments.phaseName(isa, object) ?? isa
                }
                if let comment { byID[id] = comment }
            }
        }

        /// A file or group's name: its `name`, else the last component of its `path`.
        static func elementName(_ object: PlistDictionary) -> String? {
            if let name = object["name"]?.stringValue { return name }
            guard let path = object["path"]?.stringValue else { return nil }
            guard let slash = path.lastIndex(of: "/"), path.index(after: slash) != path.endIndex else { return path }
            return String(path[path.index(after: slash)...])
        }

        /// A build phase's name as Xcode writes it, or `nil` for an object that is no build phase.
        static func phaseName(_ isa: String, _ object: PlistDictionary) -> String? {
            switch isa {
            case "PBXSourcesBuildPhase": "Sources"
            case "PBXFrameworksBuildPhase": "Frameworks"
            case "PBXResourcesBuildPhase": "Resources"
            case "PBXHeadersBuildPhase": "Headers"
            case "PBXRezBuildPhase": "Rez"
            case "PBXCopyFilesBuildPhase": object["name"]?.stringValue ?? "CopyFiles"
            case "PBXShellScriptBuildPhase": object["name"]?.stringValue ?? "ShellScript"
            case "PBXAppleScriptBuildPhase": object["name"]?.stringValue ?? "AppleScript"
            default: nil
            }
        }
    }
}

extension XcodeProjectWriter {
    /// Xcode's layout for OpenStep text that starts with Xcode's header, named as the text names
    /// the project (else after the project's first target, else "Project"); `nil` for other text.
    static func layout(of input: some Collection<UInt8>, _ value: PlistValue) -> PlistWriteOptions.OpenStepLayout? {
        guard hasHeader(input) else { return nil }
        if let name = recordedName(Array(input)) { return .xcodeProject(name: name) }
        var name = "Project"
        if let objects = value["objects"]?.dictionaryValue, let root = value["rootObject"]?.stringValue,
            let first = objects[root]?["targets"]?.arrayValue?.first?.stringValue,
            let targetName = objects[first]?["name"]?.stringValue
        {
            name = targetName
        }
        return .xcodeProject(name: name)
    }
}
