// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Dragboard",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "MicroHTTPTesting", targets: ["MicroHTTPTesting"]),
        .library(name: "DragAndDrop", targets: ["DragAndDrop"]),
        .library(name: "Dragboard", targets: ["Dragboard"]),
        .library(name: "DragboardPostgres", targets: ["DragboardPostgres"]),
        .library(name: "DragboardHTTP", targets: ["DragboardHTTP"]),
        .library(name: "DragboardTesting", targets: ["DragboardTesting"]),
        .library(name: "Showcase", targets: ["Showcase"]),
        .executable(name: "dragboard", targets: ["dragboard"]),
        .executable(name: "dragboard-example", targets: ["dragboard-example"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `swift package generate-documentation`: the DocC catalogs of the public modules.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // Argon2id password hashes and random tokens from libsodium.
        .target(name: "Passwords", dependencies: ["CSodium"], swiftSettings: swiftSettings),
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD",
                "JSONWriting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "DragAndDrop", swiftSettings: swiftSettings),
        // The raw HTTP/1.1 client tests talk to a server with (MicroHTTP's and DragboardTesting's).
        .target(name: "MicroHTTPTesting", swiftSettings: swiftSettings),
        .target(name: "JSONWriting", swiftSettings: swiftSettings),
        .target(
            name: "Dragboard",
            dependencies: ["DragAndDrop"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DragboardStore",
            dependencies: [
                "Dragboard",
                "DragAndDrop",
                "JSONWriting",
                "Passwords",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DragboardHTTP",
            dependencies: [
                "Dragboard",
                "DragboardStore",
                "DragAndDrop",
                "JSONWriting",
                "MicroHTTP",
                "Passwords",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        // The public test harness: a kit's board in process, requests, drags, the live stream.
        .target(
            name: "DragboardTesting",
            dependencies: [
                "Dragboard",
                "DragboardHTTP",
                "DragboardStore",
                "MicroHTTP",
                "MicroHTTPTesting",
                "Passwords",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // A library of its own: a kit user on SQLite never builds PostgresNIO, swift-nio-ssl or BoringSSL.
        .target(
            name: "DragboardPostgres",
            dependencies: [
                "DragboardStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "Showcase", dependencies: ["Dragboard", "DragAndDrop"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "dragboard",
            dependencies: [
                "Dragboard",
                "DragboardHTTP",
                "DragboardPostgres",
                "DragboardStore",
                "Passwords",
                "Showcase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DragboardBench",
            dependencies: ["DragAndDrop", "Dragboard", "DragboardHTTP", "DragboardStore", "Showcase"],
            swiftSettings: swiftSettings
        ),
        // `make bench-peer`'s Swift yardstick: a row move written the plain way on MicroHTTP and GRDB.
        .executableTarget(
            name: "GRDBPeer",
            dependencies: ["MicroHTTP", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")],
            path: "Tests/bench/GRDBPeer",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "dragboard-example",
            dependencies: ["Dragboard", "DragboardHTTP", "MicroHTTP"],
            path: "Examples/dragboard-example",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "MicroHTTPTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "PasswordsTests", dependencies: ["Passwords"], swiftSettings: swiftSettings),
        .testTarget(name: "JSONWritingTests", dependencies: ["JSONWriting"], swiftSettings: swiftSettings),
        .testTarget(name: "DragAndDropTests", dependencies: ["DragAndDrop"], swiftSettings: swiftSettings),
        .testTarget(name: "DragboardTests", dependencies: ["Dragboard"], swiftSettings: swiftSettings),
        .testTarget(
            name: "DragboardStoreTests",
            dependencies: ["Dragboard", "DragboardStore", "DragboardPostgres", "JSONWriting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DragboardPostgresTests",
            dependencies: ["Dragboard", "DragboardStore", "DragboardHTTP", "DragboardPostgres", "MicroHTTP", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // The HTTP layer through the public harness, with the showcase's board (and the example's) as fixtures.
        .testTarget(
            name: "DragboardHTTPTests",
            dependencies: ["Dragboard", "DragboardStore", "DragboardHTTP", "DragboardTesting", "JSONWriting", "MicroHTTP", "MicroHTTPTesting",
                           "Showcase", "dragboard-example"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ShowcaseTests", dependencies: ["Showcase", "Dragboard"], swiftSettings: swiftSettings),
        // Every Swift snippet of the docs (README, docs/, the DocC catalogs), compiled; Tests/layout/test_doc_snippets.py
        // checks that each block of the docs is here word for word.
        .testTarget(
            name: "DocSnippets",
            dependencies: ["DragAndDrop", "Dragboard", "DragboardHTTP", "DragboardTesting", "MicroHTTP", "Showcase"],
            path: "Tests/DocSnippets",
            swiftSettings: swiftSettings
        ),
    ]
)
