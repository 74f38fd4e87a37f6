package dev.cabinet.table;

import dev.cabinet.shared.Ids;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Renders the key plan as Markdown: docs/key-plan.md is this output, and a test fails when the two differ. */
public final class KeyPlanDocument {

    private KeyPlanDocument() {
    }

    public static String render(String tableName) {
        StringBuilder doc = new StringBuilder();
        doc.append("# Key plan\n\n")
                .append("<!-- Generated from dev.cabinet.table.KeyPlan by KeyPlanDocumentTest; do not edit by hand. -->\n")
                .append("<!-- A build that finds it stale rewrites it: ./mvnw test -Dtest=KeyPlanDocumentTest -Dsurefire.failIfNoSpecifiedTests=false -->\n\n")
                .append("One table (`").append(tableName).append("` by default), string keys `pk`/`sk`, billing PAY_PER_REQUEST. ")
                .append("Every item carries `").append(KeyPlan.TYPE).append("`, its entity name. Ids in keys match `")
                .append(Ids.PATTERN).append("`; timestamps are UTC with fixed millisecond width, so they sort as strings. ")
                .append("Besides the attributes below, items hold the projector's bookkeeping: `…Version` (the log offset of ")
                .append("the last event applied from a stream), `counted…` flags, `pendingCounts` and `epoch#{topic}#{partition}` (exactly-once counters, the latter fencing counts of an older owner of a log partition). ")
                .append("Time to live is enabled on `").append(KeyPlan.TTL_ATTRIBUTE)
                .append("` (epoch seconds), which metric samples carry.\n\n");

        doc.append("## Item types\n\n")
                .append("| entity (`type`) | pk | sk | GSI entries | attributes | notes |\n")
                .append("|---|---|---|---|---|---|\n");
        for (ItemType type : KeyPlan.ITEM_TYPES) {
            String gsis = type.indexEntries().stream()
                    .map(e -> "`" + e.index().indexName() + "`: `" + e.pk() + "` / `" + e.sk() + "` (" + e.condition() + ")")
                    .collect(Collectors.joining("<br>"));
            doc.append("| ").append(type.name())
                    .append(" | `").append(type.pk()).append("` | `").append(type.sk()).append("` | ")
                    .append(gsis.isEmpty() ? "" : gsis).append(" | ")
                    .append(String.join(", ", type.attributes())).append(" | ")
                    .append(notes(type)).append(" |\n");
        }

        doc.append("\n## Item collections\n\n")
                .append("Item types that share a partition and are read together by one Query. A Query returns only the item ")
                .append("types of the collection it reads (a one-type Query reads that type's own collection): ")
                .append("ItemCollectionTest renders sample sort keys of every item type, extreme values included, and fails ")
                .append("when one falls inside a pattern's prefix or range without being declared here.\n\n")
                .append("| collection | index | pk | item types (sk) | read by patterns |\n")
                .append("|---|---|---|---|---|\n");
        for (ItemCollection collection : KeyPlan.COLLECTIONS) {
            doc.append("| ").append(collection.name()).append(" | ")
                    .append(collection.index() == Index.TABLE ? "table" : collection.index().indexName())
                    .append(" | `").append(collection.partition()).append("` | ")
                    .append(collection.itemTypes().stream()
                            .map(t -> t.name() + " (`" + ItemCollection.skOf(t, collection.index()) + "`)")
                            .collect(Collectors.joining(", ")))
                    .append(" | ").append(readersOf(collection)).append(" |\n");
        }

        doc.append("\n## Access patterns\n\n")
                .append("Each is one GetItem or one key-condition Query (sharded ones: one Query per shard, in parallel, merged). ")
                .append("No Scan, no filter expression. 1–16 are SPEC §2's; the plan's own lookups follow. The key conditions ")
                .append("are rendered from the Query definitions the reading code builds its requests from.\n\n")
                .append(patternsTable());

        doc.append("\n## Indexes\n\n")
                .append("| index | keys | projection | why |\n")
                .append("|---|---|---|---|\n")
                .append("| table | `pk` (HASH), `sk` (RANGE) | all attributes | |\n");
        for (Index index : TableDefinition.secondaryIndexes()) {
            doc.append("| `").append(index.indexName()).append("` | `").append(index.pkAttribute()).append("` (HASH), `")
                    .append(index.skAttribute()).append("` (RANGE) | INCLUDE ")
                    .append(KeyPlan.projectedAttributes(index).stream().map(a -> "`" + a + "`")
                            .collect(Collectors.joining(", ")))
                    .append(" | ").append(KeyPlan.PROJECTION_REASONS.get(index)).append(" |\n");
        }
        return doc.toString();
    }

    /** Whether the type is permanent or goes with an owner, then its own notes. */
    private static String notes(ItemType type) {
        List<String> notes = new ArrayList<>();
        if (type.permanent()) {
            notes.add("never deleted once written (permanent)");
        }
        type.deletedWith().ifPresent(owner -> notes.add("deleted with its " + owner.name()));
        if (!type.notes().isEmpty()) {
            notes.add(type.notes());
        }
        return String.join("; ", notes);
    }

    private static String readersOf(ItemCollection collection) {
        List<String> numbers = KeyPlan.ACCESS_PATTERNS.stream()
                .filter(p -> p.queries().stream().anyMatch(q -> q.collection() == collection))
                .map(p -> String.valueOf(p.number())).toList();
        return String.join(", ", numbers);
    }

    /** The access patterns with the endpoint and key condition of each; README.md shows the same table. */
    public static String patternsTable() {
        StringBuilder table = new StringBuilder()
                .append("| # | pattern | endpoint | index | key condition | item types |\n")
                .append("|---|---|---|---|---|---|\n");
        for (AccessPattern pattern : KeyPlan.ACCESS_PATTERNS) {
            table.append("| ").append(pattern.number()).append(" | ").append(pattern.title()).append(" | `")
                    .append(pattern.endpoint().replace("|", "\\|")).append("` | ")
                    .append(pattern.indexes()).append(" | ")
                    .append(pattern.keyCondition()).append(" | ")
                    .append(pattern.itemTypes().stream().map(ItemType::name).collect(Collectors.joining(", ")))
                    .append(" |\n");
        }
        return table.toString();
    }
}
