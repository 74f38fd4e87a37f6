package dev.cabinet.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.group.GroupEvent;
import dev.cabinet.http.UnknownOutcome;
import dev.cabinet.post.CommentEvent;
import dev.cabinet.post.PostEvent;
import dev.cabinet.shared.Ids;

/**
 * Eight clients, each a user of its own, sending a random mix of posts, comments, deletions of their own posts and
 * comments, joins, leaves and renames, with a few reads between them. Each client keeps the ledger of what the
 * application acknowledged for it; a 503 outcome-unknown is resolved through GET /commands/{eventId} before the client
 * goes on (as a careful client would), so the ledger is exact and the read model can be compared with it.
 */
final class Workload {

    /**
     * The pause between two operations of one client ({@code cabinet.faults.pace}, milliseconds; 1000 by default). At
     * 20 ms the eight clients sent about 45 commands a second, each about 24 store calls once renames fan out, more
     * than dynalite on two cores answers: the projector fell behind without any fault, and a "recovery" measured that
     * backlog. At 1 s they send about 7, under half of what the projector applies here.
     */
    static final Duration PACE = Duration.ofMillis(Long.getLong("cabinet.faults.pace", 1000));

    /**
     * How long a client asks GET /commands/{eventId} about an unknown outcome, or sends a command again after no answer,
     * before it gives up: the full schedule's longest outage (60 s) with an outcome-unknown at its start, the faults
     * around it (4 s apart) and a kill of the instance that answers all fit.
     */
    private static final Duration RESOLVE_LIMIT = Duration.ofSeconds(300);
    /** What GET /commands/{eventId} answers with a 404: the instance answering did not send that event. */
    private static final String UNKNOWN_HERE = "unknown to the instance answering";

    /** What one client's user should see in the read model once everything is projected. */
    static final class Ledger {
        final String userId;
        volatile String name;
        final Set<String> posts = ConcurrentHashMap.newKeySet();
        /** Comment id → the seeded post it is on. */
        final Map<String, String> comments = new ConcurrentHashMap<>();
        final Set<String> groups = ConcurrentHashMap.newKeySet();
        /** Commands whose outcome stayed unknown: the ledger cannot say what the read model must show. */
        final AtomicLong unresolved = new AtomicLong();

        Ledger(String userId, String name) {
            this.userId = userId;
            this.name = name;
        }
    }

    private final Calls calls;
    private final LogLookup log;
    private final List<String> seededPosts;
    private final List<String> groupIds;
    private final List<Ledger> ledgers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong acknowledged = new AtomicLong();
    private final Map<String, AtomicLong> resolutions = new ConcurrentHashMap<>();
    private volatile boolean running;

    Workload(Calls calls, LogLookup log, List<String> seededPosts, List<String> groupIds, List<Ledger> ledgers) {
        this.calls = calls;
        this.log = log;
        this.seededPosts = seededPosts;
        this.groupIds = groupIds;
        this.ledgers.addAll(ledgers);
    }

    void start(long seed) {
        running = true;
        for (int i = 0; i < ledgers.size(); i++) {
            Ledger ledger = ledgers.get(i);
            SplittableRandom random = new SplittableRandom(seed + i);
            Thread thread = new Thread(() -> runUntilStopped(ledger, random), "fault-client-" + i);
            thread.start();
            threads.add(thread);
        }
    }

    void stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(RESOLVE_LIMIT.plusSeconds(30).toMillis());
        }
    }

    long acknowledged() {
        return acknowledged.get();
    }

    List<Ledger> ledgers() {
        return ledgers;
    }

    /** How the 503 outcome-unknown answers resolved, by the status GET /commands/{eventId} settled on. */
    Map<String, Long> resolutions() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        resolutions.forEach((status, count) -> counts.put(status, count.get()));
        return counts;
    }

    /** A client that fails stops, and its ledger counts as not exact (the run fails saying so, not by a mismatch). */
    private void runUntilStopped(Ledger me, SplittableRandom random) {
        try {
            run(me, random);
        } catch (RuntimeException e) {
            me.unresolved.incrementAndGet();
            System.out.printf("  (the client of %s failed, its ledger is not exact: %s)%n", me.userId, e);
        }
    }

    private void run(Ledger me, SplittableRandom random) {
        while (running) {
            int dice = random.nextInt(100);
            boolean ok;
            if (dice < 30) {
                ok = comment(me, random);
            } else if (dice < 42) {
                ok = post(me);
            } else if (dice < 50) {
                ok = deleteComment(me, random);
            } else if (dice < 55) {
                ok = deletePost(me, random);
            } else if (dice < 66) {
                ok = join(me, random);
            } else if (dice < 77) {
                ok = leave(me, random);
            } else if (dice < 85) {
                ok = rename(me, random);
            } else {
                ok = read(me, random);
            }
            // A steady pace below what the projector sustains here, rather than as fast as possible (see PACE), and
            // slower while the application refuses.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ok ? PACE.toMillis() : Math.max(100, PACE.toMillis())));
        }
    }

    private boolean comment(Ledger me, SplittableRandom random) {
        String postId = seededPosts.get(random.nextInt(seededPosts.size()));
        Sent sent = command(me, "POST", "/posts/" + postId + "/comments", Map.of("text", "c" + random.nextInt()));
        if (sent.accepted()) {
            me.comments.put(sent.answer().body().get("id").asText(), postId);
        } else if (sent.afterUnknownAttempt()) {
            // A retry after a takeover makes the same comment id and answers 202: a refusal here is not expected.
            unresolved(me, sent);
        }
        return sent.accepted();
    }

    private boolean post(Ledger me) {
        Sent sent = command(me, "POST", "/posts", Map.of("title", "Fault", "body", "Under faults"));
        if (sent.accepted()) {
            me.posts.add(sent.answer().body().get("id").asText());
        } else if (sent.afterUnknownAttempt()) {
            unresolved(me, sent);
        }
        return sent.accepted();
    }

    private boolean deleteComment(Ledger me, SplittableRandom random) {
        String commentId = any(me.comments.keySet(), random);
        if (commentId == null) {
            return true;
        }
        // A 404 means the comment is not projected yet: it stays in the ledger, and may be deleted later. After an
        // attempt of unknown outcome it may also mean that attempt deleted it: the log tells.
        String postId = me.comments.get(commentId);
        Sent sent = command(me, "DELETE", "/posts/" + postId + "/comments/" + commentId, null);
        if (sent.accepted() || sent.afterUnknownAttempt() && inLog(Topics.POSTS, postId, event -> event.type()
                .equals(CommentEvent.DELETED.name()) && commentId.equals(event.data().path("commentId").asText()))) {
            me.comments.remove(commentId);
            return true;
        }
        return false;
    }

    private boolean deletePost(Ledger me, SplittableRandom random) {
        String postId = any(me.posts, random);
        if (postId == null) {
            return true;
        }
        Sent sent = command(me, "DELETE", "/posts/" + postId, null);
        if (sent.accepted() || sent.afterUnknownAttempt()
                && inLog(Topics.POSTS, postId, event -> event.type().equals(PostEvent.DELETED.name()))) {
            me.posts.remove(postId);
            return true;
        }
        return false;
    }

    private boolean join(Ledger me, SplittableRandom random) {
        List<String> outside = new ArrayList<>(groupIds);
        outside.removeAll(me.groups);
        String groupId = outside.isEmpty() ? null : outside.get(random.nextInt(outside.size()));
        if (groupId == null) {
            return true;
        }
        Sent sent = command(me, "PUT", "/groups/" + groupId + "/members/" + me.userId, null);
        if (sent.afterUnknownAttempt() && (!sent.accepted() || sent.answer().status() == 200)) {
            // Decided anew after an attempt of unknown outcome, perhaps on that attempt's own effect: the log tells.
            if (isMemberInLog(me, groupId)) {
                me.groups.add(groupId);
            }
            return true;
        }
        if (!sent.accepted()) {
            return false;
        }
        // A 200 ("already a member", nothing appended) was decided on a projection that had not yet applied this
        // client's own leave of the group: commands decide on the projection as it stands, and read-your-writes is
        // opt-in (Prefer: wait). The log holds the leave last, so the client is not a member.
        if (sent.answer().status() == 202 || sent.answer().status() == 503) {
            me.groups.add(groupId);
        }
        return true;
    }

    private boolean leave(Ledger me, SplittableRandom random) {
        String groupId = any(me.groups, random);
        if (groupId == null) {
            return true;
        }
        Sent sent = command(me, "DELETE", "/groups/" + groupId + "/members/" + me.userId, null);
        if (sent.accepted() || sent.afterUnknownAttempt() && !isMemberInLog(me, groupId)) {
            me.groups.remove(groupId);
            return true;
        }
        return false;
    }

    private boolean rename(Ledger me, SplittableRandom random) {
        String name = "Client " + me.userId.substring(me.userId.length() - 6) + " " + random.nextInt(1_000_000);
        Sent sent = command(me, "PATCH", "/users/" + me.userId, Map.of("name", name));
        if (sent.accepted()) {
            me.name = name;
            return true;
        }
        if (sent.afterUnknownAttempt()) {
            unresolved(me, sent);
        }
        return false;
    }

    private boolean read(Ledger me, SplittableRandom random) {
        String path = random.nextBoolean() ? "/posts/" + seededPosts.get(random.nextInt(seededPosts.size()))
                : "/users/" + me.userId + "/groups";
        return calls.send("GET", path, me.userId, null).status() == 200;
    }

    /**
     * A command's last answer, whether it counts as accepted, and whether an attempt before it may have taken effect
     * unseen (it got no answer, or answered outcome-unknown and the instance that could say more was killed).
     */
    private record Sent(Calls.Answer answer, boolean accepted, boolean afterUnknownAttempt) {
    }

    /**
     * Sends a command with an Idempotency-Key of its own. The answer counts if it was accepted (202, or 200 for a join
     * that was already in effect), including an outcome-unknown that GET /commands/{eventId} later found in the log.
     * An attempt that got no answer (the API instance was killed under it) is sent again with the same key until one
     * comes: while the dead instance's reservation holds the key (30 s), the retry is told it is still running; then
     * it takes the reservation over, with the same ids, and is decided anew (a 503 meanwhile, a store outage, is tried
     * again too). So is an outcome-unknown that only a killed instance could have resolved. Either way the returned
     * {@link Sent} says that an earlier attempt may have taken effect, for the caller to settle by the log.
     */
    private Sent command(Ledger me, String method, String path, Object body) {
        Map<String, String> key = Map.of("Idempotency-Key", Ids.newId());
        Sent sent = settle(me, method, path, body, key, false);
        String resolution = null;
        for (int retries = 0; isOutcomeUnknown(sent.answer()) && retries < 3; retries++) {
            String status = resolve(sent.answer().body().path("eventId").asText());
            if (!status.equals(UNKNOWN_HERE)) {
                resolution = status;
                break;
            }
            // GET /commands/{eventId} tells only of the events the answering instance sent (docs/api.md), and the one
            // that sent this was killed since. The documented way on is the command again with its Idempotency-Key,
            // which reuses the event's ids: the projector drops a second copy by its id. The retry is decided anew,
            // on a projection that may already show the first attempt's event (a join then answers 200, a member
            // already; a leave 404): like an attempt that got no answer, the first may have taken effect, and the
            // caller settles by the log what the retry's answer leaves open.
            sent = settle(me, method, path, body, key, true);
            resolution = sent.accepted() ? "accepted on a retry with its key"
                    : "answered " + sent.answer().status() + " on a retry with its key";
        }
        if (resolution != null) {
            resolutions.computeIfAbsent(resolution, s -> new AtomicLong()).incrementAndGet();
        }
        if (sent.accepted() || "applied".equals(resolution) || "appended".equals(resolution)) {
            acknowledged.incrementAndGet();
            return new Sent(sent.answer(), true, sent.afterUnknownAttempt());
        }
        if ("never-appended".equals(resolution) || "rejected".equals(resolution)) {
            // Every attempt with this key sent the same event id, and the log's search for it began at the first
            // attempt (docs/api.md): none of them took effect.
            return new Sent(sent.answer(), false, false);
        }
        if (sent.answer().status() == -1 || isOutcomeUnknown(sent.answer())) {
            unresolved(me, sent);
        }
        return new Sent(sent.answer(), false, sent.afterUnknownAttempt());
    }

    private static boolean isOutcomeUnknown(Calls.Answer answer) {
        return answer.status() == 503 && UnknownOutcome.TYPE.equals(answer.call().problemType());
    }

    /**
     * Sends the command with its key until an answer settles it: an attempt that got no answer (the API instance was
     * killed under it) is sent again with the same key until one comes; while the dead instance's reservation holds
     * the key (30 s), the retry is told it is still running; then it takes the reservation over, with the same ids,
     * and is decided anew (a 503 meanwhile, a store outage, is tried again too). A 503 that changed nothing ends a
     * plain command; after an attempt that got no answer, that attempt may have taken effect, so the key is tried
     * again until an answer that settles it.
     */
    private Sent settle(Ledger me, String method, String path, Object body, Map<String, String> key,
            boolean afterUnknownAttemptBefore) {
        Calls.Answer answer = calls.send(method, path, me.userId, body, key);
        boolean afterUnknownAttempt = afterUnknownAttemptBefore;
        List<Integer> statuses = new ArrayList<>(List.of(answer.status()));
        long deadline = System.nanoTime() + RESOLVE_LIMIT.toNanos();
        while ((answer.status() == -1 || stillRunning(answer) || afterUnknownAttempt && answer.status() == 503
                && !isOutcomeUnknown(answer)) && System.nanoTime() < deadline) {
            afterUnknownAttempt |= answer.status() == -1;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            answer = calls.send(method, path, me.userId, body, key);
            statuses.add(answer.status());
        }
        if (afterUnknownAttempt) {
            System.out.printf("  (%s %s, after an attempt of unknown outcome, was sent again with its key: %s, last %s)%n",
                    method, path, statuses.stream().distinct().toList(), answer.body());
        }
        return new Sent(answer, answer.accepted(), afterUnknownAttempt);
    }

    /** A command whose outcome the client could not settle: the ledger is not exact, and the run fails. */
    private static void unresolved(Ledger me, Sent sent) {
        me.unresolved.incrementAndGet();
        Calls.Call call = sent.answer().call();
        System.out.printf("  (unresolved for %s: %s %s answered %d %s; after an attempt of unknown outcome: %s)%n",
                me.userId, call.method(), call.path(), call.status(), sent.answer().body(), sent.afterUnknownAttempt());
    }

    private static boolean stillRunning(Calls.Answer answer) {
        return answer.status() == 409 && answer.body().path("detail").asText().contains("still running");
    }

    /** Whether the log holds an event that {@code which} picks and the projector did not reject. */
    private boolean inLog(String topic, String key, java.util.function.Predicate<LogLookup.Event> which) {
        LogLookup.Event event = log.last(topic, key, which);
        return event != null && notRejected(event);
    }

    /** Whether the client's last join or leave of the group in the log is a join the projector did not reject. */
    private boolean isMemberInLog(Ledger me, String groupId) {
        LogLookup.Event last = log.last(Topics.GROUPS, groupId, event -> me.userId.equals(event.data()
                .path("userId").asText()) && (event.type().equals(GroupEvent.MEMBER_JOINED.name())
                        || event.type().equals(GroupEvent.MEMBER_LEFT.name())));
        return last != null && last.type().equals(GroupEvent.MEMBER_JOINED.name()) && notRejected(last);
    }

    /** GET /commands/{eventId}: a rejected (or discarded) event has an outcome saying so; an applied one has none. */
    private boolean notRejected(LogLookup.Event event) {
        Calls.Answer outcome = calls.quiet("GET", "/commands/" + event.id(), null, null);
        return !(outcome.status() == 200 && Set.of("rejected", "discarded")
                .contains(outcome.body().path("status").asText()));
    }

    /**
     * Asks what became of an event until the answer is final (or the limit passes: "unresolved"); a 404, nothing known
     * to the instance that answers, is {@link #UNKNOWN_HERE}.
     */
    private String resolve(String eventId) {
        long deadline = System.nanoTime() + RESOLVE_LIMIT.toNanos();
        String last = "none";
        while (System.nanoTime() < deadline) {
            Calls.Answer outcome = calls.quiet("GET", "/commands/" + eventId, null, null);
            if (outcome.status() == 404) {
                return UNKNOWN_HERE;
            }
            String status = outcome.status() == 200 ? outcome.body().path("status").asText() : "";
            if (Set.of("applied", "appended", "never-appended", "rejected").contains(status)) {
                return status;
            }
            last = outcome.status() + " " + outcome.body();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
        }
        System.out.printf("  (GET /commands/%s did not settle in %d s; it last answered %s)%n", eventId,
                RESOLVE_LIMIT.toSeconds(), last);
        return "unresolved";
    }

    private static String any(Set<String> values, SplittableRandom random) {
        List<String> list = new ArrayList<>(values);
        return list.isEmpty() ? null : list.get(random.nextInt(list.size()));
    }

    /**
     * The owner of the seeded posts and groups, renamed during the schedule while its copies fan out: its name as last
     * acknowledged, and a post of its own with {@code comments} comments of its own, each holding a copy of the name.
     */
    record Owner(String id, String name, String fanOutPost, int comments) {
    }

    /** Every mismatch between the ledgers and the read model (empty when they agree). */
    List<String> mismatches(Calls reader, Owner owner) {
        String ownerId = owner.id();
        List<String> problems = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        names.put(ownerId, owner.name());
        for (String post : seededPosts) {
            expect(problems, owner.name(), reader.quiet("GET", "/posts/" + post, null, null).body()
                    .path("authorName").asText(), "authorName of seeded post " + post);
        }
        List<JsonNode> fanOut = items(reader, "/posts/" + owner.fanOutPost() + "/comments");
        expect(problems, owner.comments(), fanOut.size(), "comments on the owner's post " + owner.fanOutPost());
        for (JsonNode item : fanOut) {
            expect(problems, owner.name(), item.path("authorName").asText(), "authorName of the owner's comment "
                    + item.path("id").asText());
        }
        Map<String, Set<String>> commentsByPost = new HashMap<>();
        Map<String, Set<String>> membersByGroup = new HashMap<>();
        seededPosts.forEach(post -> commentsByPost.put(post, new HashSet<>()));
        groupIds.forEach(group -> membersByGroup.put(group, new HashSet<>(Set.of(ownerId))));
        for (Ledger ledger : ledgers) {
            names.put(ledger.userId, ledger.name);
            ledger.comments.forEach((comment, post) -> commentsByPost.get(post).add(comment));
            ledger.groups.forEach(group -> membersByGroup.get(group).add(ledger.userId));
            JsonNode user = reader.quiet("GET", "/users/" + ledger.userId, ledger.userId, null).body();
            expect(problems, ledger.name, user.path("name").asText(), "name of " + ledger.userId);
            expect(problems, ledger.posts.size(), user.path("postCount").asInt(), "postCount of " + ledger.userId);
            expect(problems, ledger.posts, ids(reader, "/users/" + ledger.userId + "/posts", "id"),
                    "posts of " + ledger.userId);
            for (String post : ledger.posts) {
                expect(problems, ledger.name, reader.quiet("GET", "/posts/" + post, null, null).body()
                        .path("authorName").asText(), "authorName of post " + post);
            }
            expect(problems, ledger.comments.keySet(), ids(reader, "/users/" + ledger.userId + "/comments", "id"),
                    "comments of " + ledger.userId);
            expect(problems, ledger.groups, ids(reader, "/users/" + ledger.userId + "/groups", "groupId"),
                    "groups of " + ledger.userId);
        }
        for (Map.Entry<String, Set<String>> post : commentsByPost.entrySet()) {
            List<JsonNode> items = items(reader, "/posts/" + post.getKey() + "/comments");
            expect(problems, post.getValue(), idSet(items, "id", problems, post.getKey()), "comments on " + post.getKey());
            expect(problems, post.getValue().size(), reader.quiet("GET", "/posts/" + post.getKey(), null, null).body()
                    .path("commentCount").asInt(), "commentCount of " + post.getKey());
            for (JsonNode item : items) {
                String author = item.path("authorId").asText();
                if (names.containsKey(author)) {
                    expect(problems, names.get(author), item.path("authorName").asText(),
                            "authorName of comment " + item.path("id").asText());
                }
            }
        }
        for (Map.Entry<String, Set<String>> group : membersByGroup.entrySet()) {
            List<JsonNode> items = items(reader, "/groups/" + group.getKey() + "/members");
            expect(problems, group.getValue(), idSet(items, "userId", problems, group.getKey()),
                    "members of " + group.getKey());
            expect(problems, group.getValue().size(), reader.quiet("GET", "/groups/" + group.getKey(), null, null)
                    .body().path("memberCount").asInt(), "memberCount of " + group.getKey());
            for (JsonNode item : items) {
                String member = item.path("userId").asText();
                if (names.containsKey(member)) {
                    expect(problems, names.get(member), item.path("userName").asText(),
                            "userName of " + member + " in " + group.getKey());
                }
            }
        }
        return problems;
    }

    private static void expect(List<String> problems, Object expected, Object actual, String what) {
        if (!expected.equals(actual)) {
            String shown = expected instanceof Set<?> e && actual instanceof Set<?> a ? difference(e, a)
                    : "expected " + expected + ", got " + actual;
            problems.add(what + ": " + shown);
        }
    }

    private static String difference(Set<?> expected, Set<?> actual) {
        Set<Object> missing = new HashSet<>(expected);
        missing.removeAll(actual);
        Set<Object> extra = new HashSet<>(actual);
        extra.removeAll(expected);
        return missing.size() + " missing " + missing + ", " + extra.size() + " unexpected " + extra;
    }

    private static Set<String> ids(Calls reader, String path, String attribute) {
        Set<String> ids = new HashSet<>();
        items(reader, path).forEach(item -> ids.add(item.path(attribute).asText()));
        return ids;
    }

    private static Set<String> idSet(List<JsonNode> items, String attribute, List<String> problems, String where) {
        Set<String> ids = new HashSet<>();
        for (JsonNode item : items) {
            if (!ids.add(item.path(attribute).asText())) {
                problems.add(item.path(attribute).asText() + " listed twice in " + where);
            }
        }
        return ids;
    }

    /** Every item of a list, page by page. */
    private static List<JsonNode> items(Calls reader, String path) {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        do {
            Calls.Answer page = reader.quiet("GET", path + "?limit=100" + (cursor == null ? "" : "&cursor=" + cursor),
                    null, null);
            if (page.status() != 200) {
                throw new IllegalStateException("GET " + path + " answered " + page.status() + ": " + page.body());
            }
            page.body().path("items").forEach(items::add);
            cursor = page.body().hasNonNull("next") ? page.body().get("next").asText() : null;
        } while (cursor != null);
        return items;
    }
}
