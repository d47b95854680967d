//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2025 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// colourful-ball's copy: no Foundation. Upstream imports FoundationEssentials here, for
// `LocalizedError` and `JSONEncoder` only; linked statically, it stays in every run's memory
// (Vendor/README.md). An error is described as FoundationEssentials' build describes one that
// is not a `LocalizedError`, and `--experimental-dump-help` is encoded by the encoder below:
// pretty-printed JSON with sorted keys, as upstream asks Foundation's for.

extension Error {
  func describe() -> String {
    String(describing: self)
  }
}

enum JSONEncoder {
  static func encode<T: Encodable>(_ value: T) -> String {
    let encoder = TreeEncoder()
    guard (try? value.encode(to: encoder)) != nil, let root = encoder.storage.value
    else { return "" }
    var text = ""
    root.write(into: &text, indent: "")
    return text
  }
}

/// A JSON value as the encoder builds it.
private indirect enum JSONNode {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONBox])
  case object([String: JSONBox])

  /// Writes it as Foundation's JSONEncoder writes with `.prettyPrinted` and `.sortedKeys`.
  func write(into text: inout String, indent: String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .number(let value): text += value
    case .string(let value): JSONNode.quote(value, into: &text)
    case .array(let items):
      guard !items.isEmpty else {
        text += "[\n\n\(indent)]"
        return
      }
      text += "[\n"
      for (number, item) in items.enumerated() {
        text += indent + "  "
        (item.value ?? .null).write(into: &text, indent: indent + "  ")
        text += number == items.count - 1 ? "\n" : ",\n"
      }
      text += indent + "]"
    case .object(let members):
      guard !members.isEmpty else {
        text += "{\n\n\(indent)}"
        return
      }
      text += "{\n"
      let keys = members.keys.sorted()
      for (number, key) in keys.enumerated() {
        text += indent + "  "
        JSONNode.quote(key, into: &text)
        text += " : "
        (members[key]!.value ?? .null).write(into: &text, indent: indent + "  ")
        text += number == keys.count - 1 ? "\n" : ",\n"
      }
      text += indent + "}"
    }
  }

  /// `value` as a JSON string, escaped as Foundation escapes it (`/` as `\/`).
  static func quote(_ value: String, into text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "/": text += "\\/"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{08}": text += "\\b"
      case "\u{0C}": text += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}

/// A place in the tree a container writes into, filled in later.
private final class JSONBox {
  var value: JSONNode?
  init(_ value: JSONNode? = nil) { self.value = value }

  /// The object in it (made empty if it holds nothing yet).
  func member(_ key: String) -> JSONBox {
    var members: [String: JSONBox] = [:]
    if case .object(let existing) = value { members = existing }
    if let box = members[key] { return box }
    let box = JSONBox()
    members[key] = box
    value = .object(members)
    return box
  }

  /// A new element at the end of the array in it (made empty if it holds nothing yet).
  func appended() -> JSONBox {
    var items: [JSONBox] = []
    if case .array(let existing) = value { items = existing }
    let box = JSONBox()
    items.append(box)
    value = .array(items)
    return box
  }

  var count: Int {
    if case .array(let items) = value { return items.count }
    return 0
  }
}

/// An encoder that writes a value into a ``JSONBox``.
private struct TreeEncoder: Encoder {
  let storage: JSONBox
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(storage: JSONBox = JSONBox(), codingPath: [any CodingKey] = []) {
    self.storage = storage
    self.codingPath = codingPath
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = storage.value {} else { storage.value = .object([:]) }
    return KeyedEncodingContainer(Keyed<Key>(storage: storage, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = storage.value {} else { storage.value = .array([]) }
    return Unkeyed(storage: storage, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    Single(storage: storage, codingPath: codingPath)
  }

  /// Encodes `value` into `box`: a leaf as itself, anything else through its `encode(to:)`.
  static func encode<T: Encodable>(_ value: T, into box: JSONBox, codingPath: [any CodingKey]) throws {
    try value.encode(to: TreeEncoder(storage: box, codingPath: codingPath))
  }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: JSONBox
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { storage.member(key.stringValue).value = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try TreeEncoder.encode(value, into: storage.member(key.stringValue), codingPath: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    {
      TreeEncoder(storage: storage.member(key.stringValue), codingPath: codingPath + [key])
        .container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      TreeEncoder(storage: storage.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
      TreeEncoder(storage: storage.member("super"), codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      TreeEncoder(storage: storage.member(key.stringValue), codingPath: codingPath + [key])
    }
  }

  struct Unkeyed: UnkeyedEncodingContainer {
    let storage: JSONBox
    var codingPath: [any CodingKey]
    var count: Int { storage.count }

    mutating func encodeNil() throws { storage.appended().value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try TreeEncoder.encode(value, into: storage.appended(), codingPath: codingPath)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      TreeEncoder(storage: storage.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      TreeEncoder(storage: storage.appended(), codingPath: codingPath).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
      TreeEncoder(storage: storage.appended(), codingPath: codingPath)
    }
  }

  struct Single: SingleValueEncodingContainer {
    let storage: JSONBox
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { storage.value = .null }
    mutating func encode(_ value: Bool) throws { storage.value = .bool(value) }
    mutating func encode(_ value: String) throws { storage.value = .string(value) }
    mutating func encode(_ value: Double) throws { storage.value = .number(Single.number(value)) }
    mutating func encode(_ value: Float) throws { storage.value = .number(Single.number(Double(value))) }
    mutating func encode(_ value: Int) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { storage.value = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { storage.value = .number(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try TreeEncoder.encode(value, into: storage, codingPath: codingPath)
    }

    /// A whole number without a fraction, as Foundation writes it.
    static func number(_ value: Double) -> String {
      value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
  }
}
