package dev.cabinet.capacity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.cabinet.customer.CustomerEvent;
import dev.cabinet.customer.CustomerEvent.CustomerRegistered;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.customer.CustomerEvent.OrderStatusChanged;
import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
import dev.cabinet.folder.FileEvent;
import dev.cabinet.folder.FileEvent.FileDeleted;
import dev.cabinet.folder.FileEvent.FileStored;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FolderEvent;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;
import dev.cabinet.group.GroupEvent;
import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.GroupRenamed;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupEvent.MemberLeft;
import dev.cabinet.group.GroupEvent.MemberRoleChanged;
import dev.cabinet.group.GroupRole;
import dev.cabinet.metrics.MetricsEvent;
import dev.cabinet.metrics.MetricsEvent.MetricsRecorded;
import dev.cabinet.metrics.MetricsEvent.Sample;
import dev.cabinet.post.BookmarkEvent;
import dev.cabinet.post.BookmarkEvent.BookmarkRemoved;
import dev.cabinet.post.BookmarkEvent.PostBookmarked;
import dev.cabinet.post.CommentEvent;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.CommentEvent.CommentDeleted;
import dev.cabinet.post.LikeEvent;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.LikeEvent.PostUnliked;
import dev.cabinet.post.PostEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostDeleted;
import dev.cabinet.post.PostEvent.PostEdited;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.support.EventCatalog;
import dev.cabinet.support.EventExamples;
import dev.cabinet.user.UserEvent;
import dev.cabinet.user.UserEvent.UserErased;
import dev.cabinet.user.UserEvent.UserProfileUpdated;
import dev.cabinet.user.UserEvent.UserRegistered;

/**
 * The representative events the model prices, in log order: the seeds' examples with the demo data's texts (John and
 * Jane, John's post and its comments and likes, the Developers group, folders and a report, a server's metrics, a
 * customer and an order), then every other event type once, and the fan-outs twice, with a different number of copies
 * each time, so that the cost of one copy shows. Ids have the shapes the API makes: ULIDs (26 characters), and users
 * and customers a ULID after a letter, as the capacity check names them; every time is a full ISO instant with
 * milliseconds, so each item is as long as the live one. A type written nowhere here is priced from its published
 * example, before the cascade that ends it ({@link #fromExamples}): a new feature's events need no line here unless their cost depends on what
 * other aggregates hold (a cascade that deletes them, an item they read).
 */
final class Scenario {

    /** One event: its type, its data and who sent it. */
    record Step(EventType<? extends DomainEvent> type, DomainEvent data, String actor) {
    }

    /** Extra comments Jane writes before her second rename, and extra folders below Reports before Docs' second rename. */
    static final int MORE_COPIES = 10;

    private final List<Step> steps = new ArrayList<>();
    private final Supplier<String> ids;
    /** Types whose events the steps written here leave out (a test of the examples' part). */
    private final Set<String> leftOut;
    private Instant clock = Instant.parse("2026-06-01T10:00:00.123Z");

    private Scenario(Supplier<String> ids, Set<String> leftOut) {
        this.ids = ids;
        this.leftOut = leftOut;
    }

    /**
     * Ids of one length whose hash codes agree modulo this fall into the same shard ({@link dev.cabinet.table.Shards#of})
     * of every sharded item whose shard count divides it (the counters' 8, the feed's and the orders' 4), and so do
     * those ids after a letter (users', customers'): a power of two, so it also divides the 2^32 that hash codes wrap
     * at.
     */
    static final int SHARD_MODULUS = 64;

    /** Every step, in order, with the same ids every time (the model's). */
    static List<Step> steps() {
        return steps(modelIds());
    }

    /** The model's steps, with the events of the types {@code leftOut} made from their examples instead. */
    static List<Step> stepsFromExamplesFor(Set<String> leftOut) {
        return steps(modelIds(), leftOut);
    }

    /**
     * Every step, in order, with fresh ids from {@code fresh} that fall into the same shards as the model's: the items
     * the live store writes (a post's counter shards, which its deletion deletes) are then the model's items, not a
     * number that depends on where random ids happen to hash.
     */
    static List<Step> stepsShardedLikeTheModel(Supplier<String> fresh) {
        Supplier<String> model = modelIds();
        return steps(() -> {
            String like = model.get();
            String id;
            do {
                id = fresh.get();
            } while (id.length() != like.length() || Math.floorMod(id.hashCode(), SHARD_MODULUS) != Math.floorMod(
                    like.hashCode(), SHARD_MODULUS));
            return id;
        });
    }

    /** The model's ids: ULID-shaped, numbered in order. */
    private static Supplier<String> modelIds() {
        long[] sequence = {0};
        return () -> {
            sequence[0]++;
            String digits = Long.toString(sequence[0], 32).toUpperCase();
            return "01M8Y" + "0".repeat(21 - digits.length()) + digits;
        };
    }

    /** Every step, in order, with ids from {@code ids} (ULIDs: 26 characters). */
    static List<Step> steps(Supplier<String> ids) {
        return steps(ids, Set.of());
    }

    /**
     * Every step, in order, with ids from {@code ids}, except that the events of the types {@code leftOut} come from
     * their examples, as a new type's do until it is written into the scenario.
     */
    static List<Step> steps(Supplier<String> ids, Set<String> leftOut) {
        Scenario scenario = new Scenario(ids, leftOut);
        scenario.build();
        List<Step> examples = scenario.fromExamples();
        // Before the last step, the cascade of a post's deletion, which CapacityCheckTest reads every pattern before.
        scenario.steps.addAll(scenario.steps.size() - 1, examples);
        return List.copyOf(scenario.steps);
    }

    private void build() {
        String john = "u" + id();
        String jane = "u" + id();
        add(UserEvent.REGISTERED, new UserRegistered(john, "John", "john@example.com", null, now()), john);
        add(UserEvent.REGISTERED, new UserRegistered(jane, "Jane", "jane@example.com", "https://example.com/jane.png",
                now()), jane);

        String post = id();
        add(PostEvent.CREATED, new PostCreated(post, john, "My Post", "Single-table design, one cabinet per customer.",
                now()), john);
        add(PostEvent.EDITED, new PostEdited(post, "My first post", null), john);
        add(PostEvent.PUBLISHED, new PostPublished(post, now()), john);
        String janesComment = id();
        String janesCommentAt = now();
        add(CommentEvent.ADDED, new CommentAdded(post, janesComment, jane, "Great post!", janesCommentAt), jane);
        String johnsReply = id();
        String johnsReplyAt = now();
        add(CommentEvent.ADDED, new CommentAdded(post, johnsReply, john, "Thanks, Jane!", johnsReplyAt), john);
        add(LikeEvent.LIKED, new PostLiked(post, jane, now()), jane);
        add(LikeEvent.LIKED, new PostLiked(post, john, now()), john);
        add(LikeEvent.UNLIKED, new PostUnliked(post, john, now()), john);
        add(BookmarkEvent.BOOKMARKED, new PostBookmarked(post, jane, now()), jane);
        add(BookmarkEvent.BOOKMARKED, new PostBookmarked(post, john, now()), john);
        add(BookmarkEvent.REMOVED, new BookmarkRemoved(post, john, now()), john);
        add(CommentEvent.DELETED, new CommentDeleted(post, johnsReply, johnsReplyAt), john);

        String group = id();
        add(GroupEvent.CREATED, new GroupCreated(group, "Developers", "People who build Cabinet", john, now()), john);
        add(GroupEvent.MEMBER_JOINED, new MemberJoined(group, jane, GroupRole.MEMBER, now()), jane);
        add(GroupEvent.MEMBER_ROLE_CHANGED, new MemberRoleChanged(group, jane, GroupRole.ADMIN), john);
        add(GroupEvent.RENAMED, new GroupRenamed(group, "Backend developers", null), john);
        add(GroupEvent.MEMBER_LEFT, new MemberLeft(group, john), john);

        // Jane renames herself: her comment, her membership and her like carry copies of her name.
        add(UserEvent.PROFILE_UPDATED, new UserProfileUpdated(jane, "Jane D.", null, null), jane);
        for (int i = 0; i < MORE_COPIES; i++) {
            add(CommentEvent.ADDED, new CommentAdded(post, id(), jane, "Comment " + i, now()), jane);
        }
        add(UserEvent.PROFILE_UPDATED, new UserProfileUpdated(jane, "Jane Doe", null, null), jane);

        String documents = id();
        String reports = id();
        add(FolderEvent.CREATED, new FolderCreated(documents, "Documents", null, john, now()), john);
        add(FolderEvent.CREATED, new FolderCreated(reports, "Reports", documents, john, now()), john);
        add(FolderEvent.RENAMED, new FolderRenamed(documents, "Docs"), john);
        for (int i = 0; i < MORE_COPIES; i++) {
            add(FolderEvent.CREATED, new FolderCreated(id(), "Quarter " + i, reports, john, now()), john);
        }
        add(FolderEvent.RENAMED, new FolderRenamed(documents, "Documents"), john);
        String archive = id();
        add(FolderEvent.CREATED, new FolderCreated(archive, "Archive", null, john, now()), john);
        add(FolderEvent.MOVED, new FolderMoved(reports, archive), john);

        String report = id();
        String contentUrl = "s3://cabinet-files/folders/" + reports + "/files/" + report;
        add(FileEvent.UPLOADED, new FileUploaded(report, reports, "report.pdf", 48_213, "application/pdf", contentUrl,
                now(), john), john);
        add(FileEvent.STORED, new FileStored(report, 48_213, "application/pdf", now()), john);
        add(FileEvent.DELETED, new FileDeleted(report, contentUrl), john);

        add(MetricsEvent.RECORDED, new MetricsRecorded("web-1", List.of(
                new Sample(now(), 45.2, 67.8, 1234), new Sample(now(), 47.0, 68.0, 1302))), john);

        String customer = "C" + id();
        add(CustomerEvent.REGISTERED, new CustomerRegistered(customer, "Grace Hopper", "grace@example.com"), john);
        String order = "O" + id();
        add(CustomerEvent.ORDER_PLACED, new OrderPlaced(customer, order, "2026-06-01", now(),
                new BigDecimal("99.99").toPlainString()), john);
        add(CustomerEvent.ORDER_STATUS_CHANGED, new OrderStatusChanged(customer, order, "2026-06-01", "shipped"),
                john);

        // Jane is erased: the walk over every copy of her profile (her comments, her membership).
        add(UserEvent.ERASED, new UserErased(jane, now()), jane);

        // Last, as a user deletes a post with its comments and likes: the cascade over all of them.
        add(PostEvent.DELETED, new PostDeleted(post, now()), john);
    }

    private void add(EventType<? extends DomainEvent> type, DomainEvent data, String actor) {
        if (!leftOut.contains(type.name())) {
            steps.add(new Step(type, data, actor));
        }
    }

    /**
     * One event of every current type the steps above do not have (to go before the last step), made from its published
     * example (the record's {@code EXAMPLE}) with the scenario's ids and clock: its ids fresh (one example value, one
     * id, so that the examples of a feature's types name the same aggregates), its times the scenario's next and its
     * dates the scenario's day. A new type is so priced, and held to its bound, without an edit here; one whose example
     * cannot apply alone (it needs another aggregate's items) is rejected, which {@code CapacityModelTest} reports: its
     * events then go above, among those they need.
     */
    private List<Step> fromExamples() {
        Set<String> present = new HashSet<>();
        steps.forEach(step -> present.add(step.type().name()));
        Map<String, String> idOf = new HashMap<>();
        List<Step> examples = new ArrayList<>();
        for (EventType<?> type : EventCatalog.declared()) {
            if (!type.isSuperseded() && !present.contains(type.name())) {
                DomainEvent event = fromExample(type.dataClass(), idOf);
                examples.add(new Step(type, event, event.aggregateId()));
            }
        }
        return examples;
    }

    private DomainEvent fromExample(Class<?> record, Map<String, String> idOf) {
        try {
            return (DomainEvent) EventExamples.changed(record, (component, value) -> {
                FieldSchema.Kind kind = component.getAnnotation(FieldSchema.class).value();
                boolean anId = kind == FieldSchema.Kind.ID || kind == FieldSchema.Kind.OPTIONAL_ID;
                if (value instanceof String id && anId) {
                    return idOf.computeIfAbsent(id, v -> id());
                }
                if (value instanceof String date && kind == FieldSchema.Kind.DATE) {
                    // One per example value, the scenario's day: a record may hold it to its timestamp's date.
                    return idOf.computeIfAbsent("date " + date, v -> now().substring(0, 10));
                }
                return value != null && kind == FieldSchema.Kind.TIMESTAMP ? now() : value;
            });
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no event of " + record.getName() + " from its EXAMPLE", e);
        }
    }

    private String id() {
        return ids.get();
    }

    /** The next instant, a second later, as a full ISO instant with milliseconds. */
    private String now() {
        clock = clock.plusSeconds(1);
        return Timestamps.format(clock);
    }
}
