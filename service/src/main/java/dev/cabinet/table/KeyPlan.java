package dev.cabinet.table;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The single source of truth for the table: every item type with its key templates and GSI entries, every access
 * pattern, and the projection of each GSI. The CreateTable definition, the startup check and docs/key-plan.md are all
 * derived from this class.
 */
public final class KeyPlan {

    /** Every item carries its entity name in this attribute. */
    public static final String TYPE = "type";

    /** The table's time-to-live attribute: epoch seconds after which DynamoDB deletes the item. */
    public static final String TTL_ATTRIBUTE = "expiresAt";

    public static final ItemType USER_PROFILE = ItemType.named("UserProfile")
            .key("USER#{userId}", "PROFILE")
            .attributes("userId", "name", "email", "avatarUrl", "registeredAt", "postCount")
            .build();

    public static final ItemType USER_POST = ItemType.named("UserPost")
            .key("USER#{userId}", "POST#{createdAt}#{postId}")
            .attributes("postId", "title", "status", "createdAt")
            .notes("the user-side summary of a post, for the user's post list")
            .build();

    public static final ItemType POST = ItemType.named("Post")
            .key("POST#{postId}", "METADATA")
            .attributes("postId", "authorId", "authorName", "title", "body", "status", "createdAt", "publishedAt")
            .index(Index.GSI1, "POSTS#PUBLISHED#{shard}", "{publishedAt}#{postId}", "published posts only (sparse)",
                    "postId", "authorId", "authorName", "title", "status", "createdAt", "publishedAt")
            .notes("the feed entry is write-sharded over N partitions so that no single partition takes every publish; "
                    + "its likeCount and commentCount are on its PostCounter shards")
            .build();

    public static final ItemType POST_TOMBSTONE = ItemType.named("PostTombstone")
            .key("POST#{postId}", "TOMBSTONE")
            .attributes("postId", "deletedAt")
            .notes("left by a deleted post: its postVersion tells a redelivered older event of the post that it was "
                    + "applied before the deletion, so it is skipped instead of rejected")
            .build();

    public static final ItemType COMMENT = ItemType.named("Comment")
            .key("POST#{postId}", "COMMENT#{createdAt}#{commentId}")
            .attributes("commentId", "postId", "authorId", "authorName", "authorAvatar", "text", "createdAt")
            .index(Index.GSI1, "COMMENT#{commentId}", "POST#{postId}", "always",
                    "commentId", "postId", "authorId", "createdAt")
            .index(Index.GSI2, "AUTHOR#{userId}", "{createdAt}#{commentId}", "always",
                    "commentId", "postId", "authorId", "authorName", "authorAvatar", "text", "createdAt")
            .notes("the gsi1 entry finds a comment by id alone, as DELETE /posts/{id}/comments/{commentId} must")
            .deletedWith(POST)
            .build();

    public static final ItemType LIKE = ItemType.named("Like")
            .key("LIKES#{postId}", "USER#{userId}")
            .attributes(Attributes.POST_ID, Attributes.USER_ID, Attributes.LIKED, Attributes.CREATED_AT)
            .index(Index.GSI2, "LIKER#{userId}", "{createdAt}#{postId}", "while liked (sparse)",
                    Attributes.POST_ID, Attributes.CREATED_AT)
            .notes("one user's like of one post, the root of its own stream (so a post's likes are applied "
                    + "concurrently); outside the post's partition, so pattern 3 never reads a post's likes. "
                    + "createdAt is when it was last liked; an unlike keeps the item and drops its gsi2 entry")
            .deletedWith(POST)
            .build();

    public static final ItemType BOOKMARK = ItemType.named("Bookmark")
            .key("BOOKMARKS#{postId}", "USER#{userId}")
            .attributes(Attributes.POST_ID, Attributes.USER_ID, Attributes.BOOKMARKED, Attributes.CREATED_AT)
            .index(Index.GSI2, "BOOKMARKER#{userId}", "{createdAt}#{postId}", "while bookmarked (sparse)",
                    Attributes.POST_ID, Attributes.CREATED_AT)
            .notes("a user's bookmark of a post, the root of its own stream, like a like; its partition is the post's "
                    + "bookmarks, which the post's deletion deletes. createdAt is when it was last saved; a removal keeps "
                    + "the item (the stream's version) and drops its gsi2 entry")
            .deletedWith(POST)
            .build();

    public static final ItemType POST_COUNTER = ItemType.named("PostCounter")
            .key("POST#{postId}", "COUNT#{shard}")
            .attributes(Attributes.LIKE_COUNT, Attributes.COMMENT_COUNT)
            .notes("one of cabinet.counters.shards shards of a post's counters, each counter the sum of its shards: "
                    + "likeCount (the shard from the liker's id; 2,000 likes at once spread over the shards instead "
                    + "of queueing on one item) and commentCount (the shard from the comment's id). Pattern 3 and "
                    + "GET /posts/{id} read them with the post and sum them, the feed batch-reads its page's")
            .deletedWith(POST)
            .build();

    public static final ItemType GROUP = ItemType.named("Group")
            .key("GROUP#{groupId}", "METADATA")
            .attributes("groupId", "name", "description", "createdAt", "adminCount")
            .notes("adminCount lets a command refuse to remove the last admin; memberCount is on its GroupCounter "
                    + "shards")
            .build();

    public static final ItemType GROUP_COUNTER = ItemType.named("GroupCounter")
            .key("GROUP#{groupId}", "COUNT#{shard}")
            .attributes(Attributes.MEMBER_COUNT)
            .notes("one of cabinet.counters.shards shards of a group's memberCount, the shard from the member's id; "
                    + "GET /groups/{id} reads them with the group in one Query and sums them")
            .build();

    public static final ItemType GROUP_MEMBER = ItemType.named("GroupMember")
            .key("GROUP#{groupId}", "USER#{userId}")
            .attributes("groupId", "userId", "userName", "role", "joinedAt", "joinVersion", "formerRole")
            .notes("membership, group side: userName denormalized")
            .build();

    public static final ItemType USER_GROUP = ItemType.named("UserGroup")
            .key("USER#{userId}", "GROUP#{groupId}")
            .attributes("groupId", "userId", "groupName", "role", "joinedAt")
            .notes("membership, user side: groupName denormalized")
            .build();

    public static final ItemType FOLDER = ItemType.named("Folder")
            .key("FOLDER#{folderId}", "METADATA")
            .attributes("folderId", "name", "parentId", "path", "ancestorIds", "ownerId", "createdAt", "rev")
            .permanent()
            .notes("path and ancestorIds are derived from the parent's; rev makes each derivation a compare-and-set")
            .build();

    public static final ItemType SUBFOLDER = ItemType.named("Subfolder")
            .key("FOLDER#{parentId}", "FOLDER#{folderId}")
            .attributes("folderId", "name", "rev")
            .notes("rev: the folder's revision the name was copied at, so that an older copy never overwrites a newer")
            .build();

    public static final ItemType FOLDER_FILE = ItemType.named("FolderFile")
            .key("FOLDER#{folderId}", "FILE#{uploadedAt}#{fileId}")
            .attributes("fileId", "name", "size", "contentType", "uploadedAt", "status")
            .build();

    public static final ItemType FILE = ItemType.named("File")
            .key("FILE#{fileId}", "METADATA")
            .attributes("fileId", "name", "folderId", "size", "contentType", "contentUrl", "uploadedAt", "ownerId",
                    "status", "storedAt")
            .build();

    public static final ItemType FILE_TOMBSTONE = ItemType.named("FileTombstone")
            .key("FILE#{fileId}", "TOMBSTONE")
            .attributes(Attributes.FILE_ID)
            .notes("left by a deleted file: its fileVersion tells a redelivered upload of the file that it was applied "
                    + "before the deletion, so it is skipped instead of creating the file again")
            .build();

    public static final ItemType METRIC_SAMPLE = ItemType.named("MetricSample")
            .key("METRICS#{resourceId}#{shard}", "{timestamp}")
            .attributes("resourceId", "timestamp", "cpu", "memory", "requests", "expiresAt")
            .notes("write-sharded per resource, the shard from the timestamp (so a timestamp is in one shard only); "
                    + "expiresAt is the TTL attribute")
            .build();

    public static final ItemType CUSTOMER = ItemType.named("Customer")
            .key("CUSTOMER#{customerId}", "PROFILE")
            .attributes("customerId", "name", "email")
            .notes("the customer's cabinet: this profile and every order, read together by one Query")
            .build();

    public static final ItemType ORDER = ItemType.named("Order")
            .key("CUSTOMER#{customerId}", "ORDER#{orderDate}#{orderId}")
            .attributes("orderId", "customerId", "orderDate", "placedAt", "total", "status")
            .permanent()
            .index(Index.GSI1, "ORDER#{orderId}", "CUSTOMER#{customerId}", "always",
                    "orderId", "customerId", "orderDate", "placedAt", "total", "status")
            .index(Index.GSI2, "ORDERS#{orderDate}#{shard}", "{placedAt}#{orderId}", "always",
                    "orderId", "customerId", "orderDate", "placedAt", "total", "status")
            .build();

    public static final ItemType ORDER_ID_RESERVATION = ItemType.named("OrderIdReservation")
            .key("ORDERID#{orderId}", "RESERVATION")
            .attributes("orderId", "customerId", "placedAt", "total", "reservedBy", "expiresAt")
            .notes("an order id taken by a placement, written by the API with a conditional update before the event "
                    + "is appended, so that two placements of one id (one customer or two) cannot both be accepted "
                    + "while the first is not projected yet (GSI1 answers only once it is); a retry of the same "
                    + "placement (customer, time and total) finds its own; reservedBy names the request that made it, "
                    + "the only one that may free it; expires (TTL) after a day, when the order's GSI1 entry has long "
                    + "taken over")
            .build();

    public static final ItemType EVENT_OUTCOME = ItemType.named("EventOutcome")
            .key("EVENT#{eventId}", "OUTCOME")
            .attributes("eventId", "eventType", "subject", "status", "reason", "position", "decidedAt")
            .notes("what became of an event the projector did not simply apply (rejected, parked behind a dead letter, "
                    + "or discarded by an operator), recorded by event id for GET /commands/{eventId}")
            .build();

    public static final ItemType PROJECTION_PROGRESS = ItemType.named("ProjectionProgress")
            .key("PROGRESS#{topicId}", "PARTITION#{partition}")
            .attributes("topic", "partition", "appliedOffset", "appliedAt", "ownerEpoch", "ownerGeneration",
                    "ownerRaisedAt")
            .notes("how far the projector has applied each partition of the log; read by every API instance for "
                    + "read-your-writes (the topic with '.' written as '-'); and the partition's owner epoch, raised "
                    + "on every assignment in the order of the consumer group's generations, which fences counts "
                    + "made under an older one")
            .build();

    public static final ItemType IDEMPOTENT_REQUEST = ItemType.named("IdempotentRequest")
            .key("IDEMPOTENCY#{requestId}", "REQUEST")
            .attributes("fingerprint", "state", "reservedUntil", "reservedBy", "seed", "status", "body", "location",
                    "expiresAt")
            .notes("a command sent with an Idempotency-Key and its answer; requestId is a hash of the caller and the "
                    + "key; expires (TTL) after a day")
            .build();

    public static final ItemType PARKED_KEY = ItemType.named("ParkedKey")
            .key("PARKED", "KEY#{parkedKeyId}")
            .attributes("topic", "partition", "recordKey", "firstOffset", "lastParkedOffset", "reason", "eventId",
                    "eventType", "parkedAt", "recoveredBy", "recoveringUntil")
            .notes("an aggregate key whose events wait behind one that could not be applied (dead-lettered); "
                    + "parkedKeyId is derived from the topic and the record key. One partition: parked keys are "
                    + "incidents, few at any time, and the projector reads them all once a second. recoveredBy and "
                    + "recoveringUntil lease the key to one retry or discard at a time")
            .build();

    public static final ItemType PARKED_EVENT = ItemType.named("ParkedEvent")
            .key("PARKED#{parkedKeyId}", "OFFSET#{offset}")
            .attributes("topic", "partition", "offset", "eventId", "eventType", "reason", "parkedAt")
            .notes("one parked record of a parked key, by its position in the log (the record itself stays in the "
                    + "topic, which keeps events forever)")
            .build();

    public static final ItemType PARKED_POSITION = ItemType.named("ParkedPosition")
            .key("PARKED-AT#{topicId}#{partition}", "OFFSET#{offset}")
            .attributes("parkedKeyId")
            .notes("a parked record by its log position alone, which is all a Consistency-Token names: written with "
                    + "its ParkedEvent, before the partition's progress moves past it, and deleted with it")
            .build();

    public static final ItemType SUBJECT_KEY = ItemType.named("SubjectKey")
            .key("SUBJECT#{subjectId}", "KEY")
            .attributes("subjectId", "wrappedKey", "wrapping", "wrappedUnder", "createdAt", "erasedAt")
            .notes("in the home table only: a person's data key, wrapped (AWS KMS in production), that seals their "
                    + "personal data in events. Not a projection of the log, so never rebuilt; an erasure removes the "
                    + "key and leaves erasedAt, which refuses a new one")
            .build();

    public static final ItemType ACTIVE_READ_MODEL = ItemType.named("ActiveReadModel")
            .key("CABINET#READ-MODEL", "ACTIVE")
            .attributes("table", "previous", "switchedAt", "switchedBy")
            .notes("in the home table only: which table answers reads, set by a blue/green rebuild's cut-over; absent "
                    + "until the first one (the home table answers)")
            .build();

    /*
     * The aggregate streams: the root item each stream's events are recorded on (see projection.PlanExecutor), the
     * tombstone a deletion leaves, and the attribute that holds the stream version on every item the stream writes.
     */
    public static final AggregateStream USER_STREAM = new AggregateStream("user", USER_PROFILE, null, "userVersion");
    public static final AggregateStream POST_STREAM = new AggregateStream("post", POST, POST_TOMBSTONE, "postVersion");
    public static final AggregateStream LIKE_STREAM = new AggregateStream("like", LIKE, null, "likeVersion");
    public static final AggregateStream BOOKMARK_STREAM = new AggregateStream("bookmark", BOOKMARK, null,
            "bookmarkVersion");
    public static final AggregateStream GROUP_STREAM = new AggregateStream("group", GROUP, null, "groupVersion");
    public static final AggregateStream FOLDER_STREAM = new AggregateStream("folder", FOLDER, null, "folderVersion");
    public static final AggregateStream FILE_STREAM = new AggregateStream("file", FILE, FILE_TOMBSTONE,
            "fileVersion");
    public static final AggregateStream CUSTOMER_STREAM = new AggregateStream("customer", CUSTOMER, null,
            "customerVersion");

    /*
     * The denormalized copies of a user's profile: where each lives and how a rename finds them all (the projection
     * executor's RefreshCopies and CopyCheck steps walk and refresh them; see projection.PlanExecutor).
     */
    public static final DeclaredCopy POST_AUTHOR_NAME = new DeclaredCopy("the author's name on their posts",
            USER_STREAM, List.of(Map.entry(Attributes.AUTHOR_NAME, Attributes.NAME)),
            USER_POST, Index.TABLE, POST, Attributes.PROFILE_VERSION, List.of(Attributes.TITLE, Attributes.BODY));
    public static final DeclaredCopy COMMENT_AUTHOR = new DeclaredCopy("the author's name and avatar on their comments",
            USER_STREAM, List.of(Map.entry(Attributes.AUTHOR_NAME, Attributes.NAME),
                    Map.entry(Attributes.AUTHOR_AVATAR, Attributes.AVATAR_URL)),
            COMMENT, Index.GSI2, COMMENT, Attributes.PROFILE_VERSION, List.of(Attributes.TEXT));
    public static final DeclaredCopy MEMBER_NAME = new DeclaredCopy("the member's name on the group side of memberships",
            USER_STREAM, List.of(Map.entry(Attributes.USER_NAME, Attributes.NAME)),
            USER_GROUP, Index.TABLE, GROUP_MEMBER, Attributes.PROFILE_VERSION);

    /** Copies nothing: the title on the author's own post list is theirs, replaced only when they are erased. */
    public static final DeclaredCopy POST_SUMMARY_TITLE = new DeclaredCopy("the title on the author's own post list",
            USER_STREAM, List.of(), USER_POST, Index.TABLE, USER_POST, Attributes.PROFILE_VERSION,
            List.of(Attributes.TITLE));

    /** Every declared copy above, in the order declared. */
    public static final List<DeclaredCopy> COPIES = declared(DeclaredCopy.class);

    /**
     * The attributes that hold a person's data on items other than their profile: what the copies above copy of it
     * and what they say the person wrote, which their erasure replaces (derived, not listed).
     */
    public static final Set<String> PERSONAL_ATTRIBUTES = COPIES.stream()
            .flatMap(copy -> Stream.concat(copy.attributes().stream().map(Map.Entry::getKey), copy.authored().stream()))
            .collect(Collectors.toUnmodifiableSet());

    /** Every item type above, in the order declared (found, not listed: a new one is in it by being declared). */
    public static final List<ItemType> ITEM_TYPES = declared(ItemType.class);

    /** The item types that go when an item of {@code owner} is deleted ({@link ItemType#deletedWith()}), in order. */
    public static List<ItemType> deletedWith(ItemType owner) {
        return ITEM_TYPES.stream().filter(type -> type.deletedWith().filter(owner::equals).isPresent()).toList();
    }

    /*
     * The item collections: item types that share a partition and are read together by one Query. A Query may return
     * only the item types of the collection it reads (ItemCollectionTest proves it from the templates), so an item type
     * added to a shared partition either joins a collection on purpose or stays out of every range.
     */
    public static final ItemCollection POST_AND_COMMENTS = ItemCollection.of("Post, counts and comments",
            Index.TABLE, POST, POST_COUNTER, COMMENT);
    public static final ItemCollection POST_AND_COUNTS = ItemCollection.of("Post and counts", Index.TABLE,
            POST, POST_COUNTER);
    public static final ItemCollection GROUP_AND_COUNTS = ItemCollection.of("Group and member counts", Index.TABLE,
            GROUP, GROUP_COUNTER);
    public static final ItemCollection CUSTOMER_AND_ORDERS = ItemCollection.of("Customer and orders", Index.TABLE,
            CUSTOMER, ORDER);

    /** Every item collection above, in the order declared. */
    public static final List<ItemCollection> COLLECTIONS = declared(ItemCollection.class);

    /* The Queries of the access patterns; the reading code builds each request from these. */
    public static final QueryDefinition USER_POSTS = QueryDefinition.over(Index.TABLE, USER_POST).prefix(USER_POST)
            .descending().build();
    public static final QueryDefinition POST_WITH_COUNTS = QueryDefinition.over(POST_AND_COUNTS)
            .between(POST_COUNTER, POST).descending().label("alone").note("the metadata and its counter shards")
            .build();
    public static final QueryDefinition POST_WITH_COMMENTS = QueryDefinition.over(POST_AND_COMMENTS)
            .between(COMMENT, POST).descending().label("with comments")
            .note("the metadata, the counter shards, then the newest comments").build();
    public static final QueryDefinition GROUP_WITH_COUNTS = QueryDefinition.over(GROUP_AND_COUNTS)
            .between(GROUP_COUNTER, GROUP).descending().note("the metadata and its memberCount shards").build();
    public static final QueryDefinition POST_COMMENTS = QueryDefinition.over(Index.TABLE, COMMENT).prefix(COMMENT)
            .eitherOrder().build();
    public static final QueryDefinition PUBLISHED_POSTS = QueryDefinition.over(Index.GSI1, POST).descending().build();
    public static final QueryDefinition USER_COMMENTS = QueryDefinition.over(Index.GSI2, COMMENT).descending().build();
    public static final QueryDefinition USER_LIKES = QueryDefinition.over(Index.GSI2, LIKE).descending().build();
    public static final QueryDefinition USER_BOOKMARKS = QueryDefinition.over(Index.GSI2, BOOKMARK).descending()
            .build();
    public static final QueryDefinition USER_GROUPS = QueryDefinition.over(Index.TABLE, USER_GROUP).prefix(USER_GROUP)
            .ascending().build();
    public static final QueryDefinition GROUP_MEMBERS = QueryDefinition.over(Index.TABLE, GROUP_MEMBER)
            .prefix(GROUP_MEMBER).ascending().build();
    public static final QueryDefinition FOLDER_FILES = QueryDefinition.over(Index.TABLE, FOLDER_FILE)
            .prefix(FOLDER_FILE).descending().label("files").build();
    public static final QueryDefinition SUBFOLDERS = QueryDefinition.over(Index.TABLE, SUBFOLDER).prefix(SUBFOLDER)
            .ascending().label("subfolders").build();
    public static final QueryDefinition METRICS_IN_RANGE = QueryDefinition.over(Index.TABLE, METRIC_SAMPLE)
            .range(METRIC_SAMPLE).ascending().build();
    public static final QueryDefinition CUSTOMER_WITH_ORDERS = QueryDefinition.over(CUSTOMER_AND_ORDERS)
            .between(ORDER, CUSTOMER).descending().label("with orders").note("the profile, then the newest orders")
            .build();
    public static final QueryDefinition CUSTOMER_ORDERS = QueryDefinition.over(Index.TABLE, ORDER).range(ORDER)
            .eitherOrder().label("orders, all or in a date range").build();
    public static final QueryDefinition ORDER_BY_ID = QueryDefinition.over(Index.GSI1, ORDER).build();
    public static final QueryDefinition ORDERS_ON_DATE = QueryDefinition.over(Index.GSI2, ORDER).ascending().build();
    public static final QueryDefinition COMMENT_BY_ID = QueryDefinition.over(Index.GSI1, COMMENT).build();
    public static final QueryDefinition PARKED_KEYS = QueryDefinition.over(Index.TABLE, PARKED_KEY).prefix(PARKED_KEY)
            .ascending().consistentRead().build();
    public static final QueryDefinition PARKED_EVENTS = QueryDefinition.over(Index.TABLE, PARKED_EVENT)
            .prefix(PARKED_EVENT).ascending().consistentRead().build();

    public static final List<AccessPattern> ACCESS_PATTERNS = List.of(
            new AccessPattern(1, "Get a user profile", "GET /users/{id}", ItemRead.of(USER_PROFILE)),
            new AccessPattern(2, "List a user's posts, newest first", "GET /users/{id}/posts", USER_POSTS),
            new AccessPattern(3, "Get a post with its comments in one request", "GET /posts/{id}?include=comments",
                    POST_WITH_COUNTS, POST_WITH_COMMENTS),
            new AccessPattern(4, "List a post's comments, oldest or newest first",
                    "GET /posts/{id}/comments?order=asc|desc", POST_COMMENTS),
            new AccessPattern(5, "List all published posts, newest first", "GET /posts?status=published",
                    PUBLISHED_POSTS),
            new AccessPattern(6, "List a user's comments, newest first", "GET /users/{id}/comments", USER_COMMENTS),
            new AccessPattern(7, "List a user's groups", "GET /users/{id}/groups", USER_GROUPS),
            new AccessPattern(8, "List a group's members", "GET /groups/{id}/members", GROUP_MEMBERS),
            new AccessPattern(9, "Check one membership", "GET /groups/{id}/members/{userId}", ItemRead.of(USER_GROUP)),
            new AccessPattern(10, "Get a group", "GET /groups/{id}", GROUP_WITH_COUNTS),
            new AccessPattern(11, "List a folder's files (newest first) and subfolders",
                    "GET /folders/{id}/files, GET /folders/{id}/folders", FOLDER_FILES, SUBFOLDERS),
            new AccessPattern(12, "Get a file directly", "GET /files/{id}", ItemRead.of(FILE)),
            new AccessPattern(13, "Metrics of a resource in a time range", "GET /metrics/{resourceId}?from=&to=",
                    METRICS_IN_RANGE),
            new AccessPattern(14, "Customer profile, with orders, or orders in a date range",
                    "GET /customers/{id}[?include=orders], GET /customers/{id}/orders?from=&to=",
                    ItemRead.of(CUSTOMER), CUSTOMER_WITH_ORDERS, CUSTOMER_ORDERS),
            new AccessPattern(15, "Get one order by order id", "GET /orders/{id}", ORDER_BY_ID),
            new AccessPattern(16, "List all orders on one date", "GET /orders?date=YYYY-MM-DD", ORDERS_ON_DATE),
            new AccessPattern(17, "Find a comment by its id (to authorize deleting it)",
                    "DELETE /posts/{id}/comments/{commentId}", COMMENT_BY_ID),
            new AccessPattern(18, "The outcome of an event the projector rejected", "GET /commands/{eventId}",
                    ItemRead.of(EVENT_OUTCOME).consistent().note("before the partition's progress")),
            new AccessPattern(19, "How far the projector has applied a partition of the log",
                    "Consistency-Token and Prefer: wait on any request", ItemRead.of(PROJECTION_PROGRESS).consistent()),
            new AccessPattern(20, "A command sent before with the same Idempotency-Key",
                    "Idempotency-Key on any command",
                    ItemRead.of(IDEMPOTENT_REQUEST).consistent().note("after a conditional PutItem")),
            new AccessPattern(21, "The parked keys, with the reason each was parked (operator; the projector reads "
                    + "them once a second)", "GET /admin/parked-keys", PARKED_KEYS),
            new AccessPattern(22, "A parked key's events in log order (operator retry and discard)",
                    "GET /admin/parked-keys/{id}", PARKED_EVENTS),
            new AccessPattern(23, "Which table answers reads (every instance, every few seconds)",
                    "all reads; POST /admin/rebuilds/{table}/cut-over sets it",
                    ItemRead.of(ACTIVE_READ_MODEL).consistent().note("in the home table")),
            new AccessPattern(24, "List the posts a user likes, newest like first", "GET /users/{id}/likes",
                    USER_LIKES),
            new AccessPattern(25, "List the posts a user bookmarked, newest first",
                    "GET /users/{id}/bookmarks", USER_BOOKMARKS).onlyForTheCaller(),
            new AccessPattern(26, "Whether the event at a log position waits behind a dead letter (once the "
                    + "position is applied)", "Consistency-Token on any query",
                    ItemRead.of(PARKED_POSITION).consistent().note("then its ParkedKey, where there is a mark")));

    /**
     * Why each GSI projects what it does. Both use INCLUDE rather than ALL: the lists they serve show summaries, so a
     * post's body never gets copied into the feed index (that would double the write cost of every large post), and
     * rather than KEYS_ONLY, which would turn every listed item into an extra GetItem (N+1 reads on each page).
     */
    public static final Map<Index, String> PROJECTION_REASONS = Map.of(
            Index.GSI1, "INCLUDE the summary attributes of published posts and orders, and a comment's owners: the "
                    + "feed, the order lookup and the comment lookup answer from the index alone, while post bodies "
                    + "stay out of it.",
            Index.GSI2, "INCLUDE the attributes a user's comment list and a day's order list show: one Query answers "
                    + "each page without a GetItem per item.");

    private KeyPlan() {
    }

    /** The non-key attributes a GSI projects: {@code type} plus what each item type with an entry there asks for. */
    public static Set<String> projectedAttributes(Index index) {
        Set<String> projected = new TreeSet<>();
        projected.add(TYPE);
        for (ItemType type : ITEM_TYPES) {
            type.entryIn(index).ifPresent(entry -> projected.addAll(entry.projected()));
        }
        return projected;
    }

    /** The item type whose key templates the key has, if any. */
    public static Optional<ItemType> typeOf(Key key) {
        return ITEM_TYPES.stream().filter(type -> type.matches(key)).findFirst();
    }

    /**
     * Every public constant of {@code kind} declared in this class, in the order written (the order the JDK's
     * reflection gives, and the generated docs/key-plan.md would show a change of it). Called while the class is
     * initialised: a constant declared below its list is not initialised yet, and fails here instead of going missing.
     */
    private static <T> List<T> declared(Class<T> kind) {
        List<T> found = new ArrayList<>();
        for (Field field : KeyPlan.class.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (field.getType() != kind || !Modifier.isStatic(modifiers) || !Modifier.isPublic(modifiers)) {
                continue;
            }
            Object value;
            try {
                value = field.get(null);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            if (value == null) {
                throw new IllegalStateException("KeyPlan." + field.getName() + " is declared below the list of every "
                        + kind.getSimpleName() + ": declare it above that list");
            }
            found.add(kind.cast(value));
        }
        return List.copyOf(found);
    }
}
