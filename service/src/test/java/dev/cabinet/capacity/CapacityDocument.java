package dev.cabinet.capacity;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.cabinet.table.AccessPattern;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemRead;
import dev.cabinet.table.ItemType;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.QueryDefinition;
import dev.cabinet.table.TableRead;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The capacity model's figures as docs/capacity.md and as the Dev UI's data. */
final class CapacityDocument {

    /** On-demand prices, us-east-1, since 1 November 2024 (the AWS pricing page, checked December 2026). */
    static final double DOLLARS_PER_MILLION_WRITES = 0.625;
    static final double DOLLARS_PER_MILLION_READS = 0.125;
    /** What one partition takes each second before it throttles. */
    static final int PARTITION_WRITE_UNITS = 1000;
    static final int PARTITION_READ_UNITS = 3000;
    /** The API's page sizes: cabinet.query.default-limit and cabinet.query.max-limit. */
    static final int DEFAULT_PAGE = 20;
    static final int MAX_PAGE = 100;

    /** The configured shard counts the hot keys divide over. */
    record Shards(int counters, int feed, int orders) {
    }

    /** One event type's row. */
    record EventRow(String type, String calls, int callCount, int rounds, int mostRounds, int writeUnits,
            int indexWriteUnits, double readUnits, int largestWrite, String released, double dollarsPerMillion,
            int kafkaBytes) {
    }

    /** A fan-out's cost for each copy it reaches. */
    record CopyRow(String type, String fixed, double callsPerCopy, double writeUnitsPerCopy, double readUnitsPerCopy,
            double roundsPerCopy) {
    }

    /** One access pattern's reads. */
    record PatternRow(int number, String name, String reads, int itemBytes, double defaultPageUnits,
            double maxPageUnits) {
    }

    /** A key many writes go to, and how many a second it takes before its partition throttles. */
    record HotRow(String key, String writtenBy, int writeUnits, int spreadOver, int sustained) {
    }

    /** The per-event figures of the first generated model, at 9e4b104. */
    static final String BASELINE = "/capacity/baseline-9e4b104.tsv";

    private final CapacityModel.Result result;
    private final Shards shards;

    CapacityDocument(CapacityModel.Result result, Shards shards) {
        this.result = result;
        this.shards = shards;
    }

    List<EventRow> events() {
        List<EventRow> rows = new ArrayList<>();
        result.byType().values().stream().sorted((a, b) -> a.type().compareTo(b.type())).forEach(applied -> {
            String calls = applied.calls().entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                    .collect(Collectors.joining(", "));
            String released = applied.settledCalls().isEmpty() ? "" : applied.settledCalls().entrySet().stream()
                    .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "))
                    + (applied.settledWriteUnits() > 0 ? ", " + applied.settledWriteUnits() + " WU" : "")
                    + (applied.settledReadUnits() > 0 ? ", " + format(applied.settledReadUnits()) + " RU" : "");
            int writes = applied.writeUnits() + applied.indexWriteUnits() + applied.settledWriteUnits();
            double reads = applied.readUnits() + applied.settledReadUnits();
            rows.add(new EventRow(applied.type(), calls, applied.callCount(), applied.rounds(),
                    result.mostRounds().get(applied.type()), applied.writeUnits(),
                    applied.indexWriteUnits(), applied.readUnits(), applied.largestWrite(), released,
                    writes * DOLLARS_PER_MILLION_WRITES + reads * DOLLARS_PER_MILLION_READS,
                    applied.kafkaBytes()));
        });
        return rows;
    }

    List<CopyRow> copies() {
        List<CopyRow> rows = new ArrayList<>();
        for (String type : CapacityModel.FAN_OUTS) {
            CapacityModel.Applied first = result.byType().get(type);
            CapacityModel.Applied second = result.secondRuns().get(type);
            if (first == null || second == null) {
                continue;
            }
            double copies = Scenario.MORE_COPIES;
            rows.add(new CopyRow(type, first.callCount() + " calls, " + (first.writeUnits() + first.indexWriteUnits())
                    + " WU, " + format(first.readUnits()) + " RU, " + first.rounds() + " rounds",
                    (second.callCount() - first.callCount()) / copies,
                    (second.writeUnits() + second.indexWriteUnits() - first.writeUnits() - first.indexWriteUnits())
                            / copies,
                    (second.readUnits() - first.readUnits()) / copies, (second.rounds() - first.rounds()) / copies));
        }
        return rows;
    }

    List<PatternRow> patterns() {
        List<PatternRow> rows = new ArrayList<>();
        for (AccessPattern pattern : KeyPlan.ACCESS_PATTERNS) {
            List<String> reads = new ArrayList<>();
            int bytes = 0;
            double defaultUnits = 0;
            double maxUnits = 0;
            for (TableRead read : pattern.reads()) {
                if (read instanceof ItemRead item) {
                    int size = ItemSizes.of(largest(item.itemType()));
                    double units = ItemSizes.readUnits(size, item.consistentRead());
                    reads.add("GetItem " + item.itemType().name());
                    bytes = Math.max(bytes, size);
                    defaultUnits += units;
                    maxUnits += units;
                } else if (read instanceof QueryDefinition query) {
                    int size = query.itemTypes().stream().mapToInt(type -> entrySize(query.index(), type)).max()
                            .orElse(0);
                    int queries = !query.sharded() ? 1 : query.index() == Index.GSI1 ? shards.feed() : shards.orders();
                    reads.add((queries > 1 ? queries + " Queries" : "Query") + " " + query.index()
                            + (query.consistent() ? ", consistent" : ""));
                    bytes = Math.max(bytes, size);
                    defaultUnits += queries * ItemSizes.readUnits(pageBytes(query, DEFAULT_PAGE), query.consistent());
                    maxUnits += queries * ItemSizes.readUnits(pageBytes(query, MAX_PAGE), query.consistent());
                }
            }
            rows.add(new PatternRow(pattern.number(), pattern.title(), String.join(" + ", reads), bytes, defaultUnits,
                    maxUnits));
        }
        return rows;
    }

    /**
     * The bytes of a page of {@code items}: an item of a type one per partition (a fixed sort key: a post's or a
     * group's own item, read with its comments or members) once, the rest of the page the largest of the listed types.
     */
    private int pageBytes(QueryDefinition query, int items) {
        List<ItemType> single = query.itemTypes().stream()
                .filter(type -> query.index() == Index.TABLE && type.sk().placeholders().isEmpty()).toList();
        int once = single.stream().mapToInt(type -> entrySize(query.index(), type)).sum();
        int listed = query.itemTypes().stream().filter(type -> !single.contains(type))
                .mapToInt(type -> entrySize(query.index(), type)).max().orElse(0);
        return once + Math.max(0, items - single.size()) * listed;
    }

    List<HotRow> hotKeys() {
        List<HotRow> rows = new ArrayList<>();
        hot(rows, "a post's like counter (PostCounter)", "cabinet.post.liked.v1", "PostCounter", shards.counters());
        hot(rows, "a post's comment counter (PostCounter)", "cabinet.comment.added.v1", "PostCounter",
                shards.counters());
        hot(rows, "a post's own item (Post): every comment is recorded on it", "cabinet.comment.added.v1", "Post", 1);
        hot(rows, "a group's member counter (GroupCounter)", "cabinet.group.member-joined.v1", "GroupCounter",
                shards.counters());
        hot(rows, "a group's own item (Group): every join is recorded on it", "cabinet.group.member-joined.v1",
                "Group", 1);
        hot(rows, "an author's profile (UserProfile): postCount", "cabinet.post.created.v1", "UserProfile", 1);
        hot(rows, "the feed (GSI1 shard): a post's entry", "cabinet.post.published.v1", "GSI1", shards.feed());
        hot(rows, "a day's orders (GSI2 shard): an order's entry", "cabinet.customer.order-placed.v2", "GSI2",
                shards.orders());
        return rows;
    }

    private void hot(List<HotRow> rows, String key, String eventType, String itemType, int spread) {
        CapacityModel.Applied applied = result.byType().get(eventType);
        if (applied == null) {
            return;
        }
        int units = itemType.startsWith("GSI") ? Math.max(1, applied.indexWriteUnits())
                : applied.writeUnitsByItemType().getOrDefault(itemType, 0);
        if (units == 0) {
            return;
        }
        rows.add(new HotRow(key, eventType, units, spread, PARTITION_WRITE_UNITS * spread / units));
    }

    String markdown() {
        StringBuilder doc = new StringBuilder();
        doc.append("# Capacity: what each event and read costs in DynamoDB's units\n\n")
                .append("Generated by `CapacityModelTest` from the code as it is; do not edit by hand (a build that ")
                .append("finds it stale rewrites it: `./mvnw -pl service test -Dtest=CapacityModelTest ")
                .append("-Dsurefire.failIfNoSpecifiedTests=false`). The model runs a scenario of representative events (the demo ")
                .append("data's texts, with ids and times as long as live ones, at offsets a million records into ")
                .append("the log; a type the scenario does not write out is played from its schema's example) through the real projectors, executor and table writer over a store in memory that ")
                .append("answers the calls one round at a time and prices each by DynamoDB's rules: a write one unit ")
                .append("per KB of the larger of the item before and after (attribute names included, at least one, ")
                .append("a failed condition too), a strongly consistent read one unit per 4 KB (half for an ")
                .append("eventually consistent one), a query the size of what it read together, and one index write ")
                .append("per GSI entry a write adds, changes or removes (two when its key moves), of the entry's size ")
                .append("(its keys and projected attributes). Events are applied one at a time, as at a low rate; ")
                .append("under load the executor shares reads and counter writes between events, which this does not ")
                .append("show. `CapacityCheckTest` drives the same events through the API and compares what dynalite ")
                .append("reports (`cabinet_store_capacity_units_total`) with the table's units here; dynalite reports ")
                .append("no index units, so those are the model's alone. Not in the tables: before it records a ")
                .append("position as applied, the projector reads each GSI entry it added or changed back from its ")
                .append("index (one eventually consistent Query, 0.5 RU for these entries, more while the index lags; ")
                .append("source `index-check` in the meter; docs/design.md, \"Index reads after a write\").\n\n")
                .append("Prices: DynamoDB on-demand, us-east-1, since 1 November 2024: $")
                .append(DOLLARS_PER_MILLION_WRITES).append(" per million write request units (WU), $")
                .append(DOLLARS_PER_MILLION_READS).append(" per million read request units (RU). A partition takes ")
                .append(PARTITION_WRITE_UNITS).append(" WU and ").append(PARTITION_READ_UNITS)
                .append(" RU a second. Shards: counters ").append(shards.counters()).append(", feed ")
                .append(shards.feed()).append(", orders by date ").append(shards.orders()).append(".\n\n");

        doc.append("## Per event (the projector)\n\n")
                .append("Rounds are the store round trips one after the other, on the event's path. Two kinds of work ")
                .append("are made after the event, when its batch ends, and \"settled after\" counts them: the checks ")
                .append("that only repair a race (a copy check's look at the source a holder copied, an orphan check's ")
                .append("look at the owner's tombstone, a new subfolder's look at the parent its path was derived from, ")
                .append("a profile's walks over its copies made again, since they began beside its recording write; ")
                .append("the batch's reads go out together), and the last two steps of ")
                .append("an exactly-once count, its marker's flag and its token's release (the flags together, then ")
                .append("the releases of the batch, one per counter, after one consistent read of the owner epochs of ")
                .append("the batch's partitions: design.md, \"Owner epochs\"). The price adds them; the Kafka bytes are the record's ")
                .append("key, JSON data and CloudEvents headers. Each row is the type's first event in the scenario; ")
                .append("\"most rounds\" is the most any of its events took, the renames' later events aside (they ")
                .append("grow with the copies, below).\n\n")
                .append("| event type | store calls | rounds | most rounds | table WU | index WU | RU | largest item written (B) | ")
                .append("settled after | $ per million events | Kafka bytes |\n")
                .append("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
        for (EventRow row : events()) {
            doc.append("| ").append(row.type()).append(" | ").append(row.callCount()).append(": ").append(row.calls())
                    .append(" | ").append(row.rounds()).append(" | ").append(row.mostRounds()).append(" | ")
                    .append(row.writeUnits()).append(" | ")
                    .append(row.indexWriteUnits()).append(" | ").append(format(row.readUnits())).append(" | ")
                    .append(row.largestWrite()).append(" | ").append(row.released()).append(" | ")
                    .append(String.format(Locale.ROOT, "%.2f", row.dollarsPerMillion())).append(" | ")
                    .append(row.kafkaBytes()).append(" |\n");
        }
        appendSinceFirstModel(doc);
        doc.append("\n## Fan-outs: what each copy adds\n\n")
                .append("A rename reaches every copy of the name (a user's comments, posts and memberships; a folder's ")
                .append("descendants). The table above shows the first rename of the scenario; here its fixed part, ")
                .append("and what each of ").append(Scenario.MORE_COPIES).append(" copies added before a second ")
                .append("rename cost on top, on the event's path (a profile's walks are made again when the batch ends ")
                .append("over their first page's range, up to a page of copies: \"settled after\" above).\n\n")
                .append("| event type | first rename | calls per copy | WU per copy | RU per copy | rounds per copy |\n")
                .append("|---|---|---:|---:|---:|---:|\n");
        for (CopyRow row : copies()) {
            doc.append("| ").append(row.type()).append(" | ").append(row.fixed()).append(" | ")
                    .append(format(row.callsPerCopy())).append(" | ").append(format(row.writeUnitsPerCopy()))
                    .append(" | ").append(format(row.readUnitsPerCopy())).append(" | ")
                    .append(format(row.roundsPerCopy())).append(" |\n");
        }
        doc.append("\n## Per access pattern (a page)\n\n")
                .append("The largest item of each type the scenario wrote (its index entry, for a GSI), read a whole ")
                .append("page at a time: ").append(DEFAULT_PAGE).append(" items (the default) or ").append(MAX_PAGE)
                .append(" (the most a page holds); an item one per partition (a post's own item, read with its ")
                .append("comments) once in a page. A sharded read queries every shard for a page.\n\n")
                .append("| # | pattern | reads | item (B) | RU, page of ").append(DEFAULT_PAGE).append(" | RU, page of ")
                .append(MAX_PAGE).append(" |\n|---:|---|---|---:|---:|---:|\n");
        for (PatternRow row : patterns()) {
            doc.append("| ").append(row.number()).append(" | ").append(row.name()).append(" | ").append(row.reads())
                    .append(" | ").append(row.itemBytes()).append(" | ").append(format(row.defaultPageUnits()))
                    .append(" | ").append(format(row.maxPageUnits())).append(" |\n");
        }
        doc.append("\n## Hot keys: sustained writes before a partition throttles\n\n")
                .append("The write units one event puts on the key (its token release included, made once per event ")
                .append("as at a low rate; under load it is made once per counter and batch, so a busy key takes ")
                .append("more), and how many such ")
                .append("events a second the key takes at ").append(PARTITION_WRITE_UNITS)
                .append(" WU a second per partition, over its shards.\n\n")
                .append("| key | written by | WU per event | shards | events/s |\n|---|---|---:|---:|---:|\n");
        for (HotRow row : hotKeys()) {
            doc.append("| ").append(row.key()).append(" | ").append(row.writtenBy()).append(" | ")
                    .append(row.writeUnits()).append(" | ").append(row.spreadOver()).append(" | ")
                    .append(row.sustained()).append(" |\n");
        }
        return doc.toString();
    }

    /**
     * Each event type's rounds, table write units and largest item as the model first counted them ({@link #BASELINE},
     * committed once) beside today's, and today's write units against the least the event could write.
     */
    private void appendSinceFirstModel(StringBuilder doc) {
        Map<String, String[]> then = baseline();
        doc.append("\n## Since the model was first generated\n\n")
                .append("The figures at `9e4b104`, when this document was first generated from the code (issue 37), ")
                .append("beside today's. Table write units are the event's, on its path and settled after, one event ")
                .append("per batch. The minimum is each item the event changes written once (at its largest write of ")
                .append("it); above it is what exactly-once counting without transactions costs (a count's marker ")
                .append("flag and token release, the token's share of a batch at a low rate) and any item written ")
                .append("twice.\n\n")
                .append("| event type | rounds, then → now | table WU, then → now | minimum WU | × minimum | ")
                .append("largest item written (B), then → now |\n|---|---|---|---:|---:|---|\n");
        result.byType().values().stream().sorted((a, b) -> a.type().compareTo(b.type())).forEach(applied -> {
            String[] was = then.getOrDefault(applied.type(), new String[] {"—", "—", "—"});
            doc.append("| ").append(applied.type()).append(" | ").append(was[0]).append(" → ")
                    .append(applied.rounds()).append(" | ").append(was[1]).append(" → ")
                    .append(applied.tableWriteUnits()).append(" | ").append(applied.minimumWriteUnits()).append(" | ")
                    .append(applied.minimumWriteUnits() == 0 ? "—" : String.format(Locale.ROOT, "%.2f",
                            (double) applied.tableWriteUnits() / applied.minimumWriteUnits()))
                    .append(" | ").append(was[2]).append(" → ").append(applied.largestWrite()).append(" |\n");
        });
    }

    /** The committed figures of the first model: rounds, table write units and largest item, by event type. */
    private static Map<String, String[]> baseline() {
        Map<String, String[]> rows = new LinkedHashMap<>();
        try (InputStream in = CapacityDocument.class.getResourceAsStream(BASELINE)) {
            if (in == null) {
                throw new IllegalStateException(BASELINE + " is missing");
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] cells = line.split("\t");
                if (line.startsWith("#") || cells.length != 4 || cells[0].equals("type")) {
                    continue;
                }
                rows.put(cells[0], new String[] {cells[1], cells[2], cells[3]});
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /** The same figures for the Dev UI's key-plan page. */
    String json(ObjectMapper mapper) {
        Map<String, Object> data = new LinkedHashMap<>();
        Map<String, Object> prices = new LinkedHashMap<>();
        prices.put("dollarsPerMillionWrites", DOLLARS_PER_MILLION_WRITES);
        prices.put("dollarsPerMillionReads", DOLLARS_PER_MILLION_READS);
        prices.put("since", "2024-11-01");
        data.put("prices", prices);
        data.put("events", events());
        data.put("fanOuts", copies());
        data.put("accessPatterns", patterns());
        data.put("hotKeys", hotKeys());
        try {
            return mapper.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(data) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, AttributeValue> largest(ItemType type) {
        return result.largestItems().get(type.name());
    }

    private int entrySize(Index index, ItemType type) {
        Map<String, AttributeValue> item = largest(type);
        return index == Index.TABLE ? ItemSizes.of(item) : ItemSizes.of(ModelStore.indexEntry(index, item));
    }

    static String format(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value)
                : String.format(Locale.ROOT, "%.2f", value).replaceAll("0+$", "");
    }
}
