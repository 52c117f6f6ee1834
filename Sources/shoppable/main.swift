// The `shoppable` executable: parse the command line, wire the live environment, run.
// Everything else lives in the library modules.
import Foundation

exit(CommandLine.run(Array(CommandLine.arguments.dropFirst())))
