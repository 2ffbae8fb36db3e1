// Names what the library keeps to itself: this must not compile.
import DatabaseRules

let machine: VM? = nil
let table: SnapshotTable? = nil
print(machine == nil, table == nil)
