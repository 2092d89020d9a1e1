// A harness's answers are MicroHTTPTesting's `TestResponse`s: importing the harness brings them along.
@_exported import MicroHTTPTesting
