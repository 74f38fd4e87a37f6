package dev.cabinet.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady stream of commands from a few threads (new posts and, mostly, comments on them), with a ledger of every
 * command the application acknowledged (202): those are the ones that must survive whatever happens next.
 */
final class CommandLoad {

    private final CrashClient client;
    private final List<String> users;
    /**
     * The posts comments go to: the seeded ones, certainly projected before the load starts (a post acknowledged a
     * moment ago may not be projected yet, and a comment on it would rightly be refused with a 404).
     */
    private final List<String> commentable = new CopyOnWriteArrayList<>();
    private final Map<String, Set<String>> ackedComments = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> ackedPosts = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final Map<Integer, AtomicLong> answers = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;

    CommandLoad(CrashClient client, List<String> users) {
        this.client = client;
        this.users = users;
        users.forEach(user -> ackedPosts.put(user, ConcurrentHashMap.newKeySet()));
    }

    /** A post to comment on, written before the load starts (waits until the application answered 202). */
    void seedPost(String authorId, String postId) {
        commentable.add(postId);
        ackedPosts.get(authorId).add(postId);
        ackedComments.put(postId, ConcurrentHashMap.newKeySet());
    }

    void start(int threadCount, long seed) {
        running = true;
        for (int i = 0; i < threadCount; i++) {
            SplittableRandom random = new SplittableRandom(seed + i);
            Thread thread = new Thread(() -> run(random), "command-load-" + i);
            thread.start();
            threads.add(thread);
        }
    }

    void stop() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    private void run(SplittableRandom random) {
        while (running) {
            String user = users.get(random.nextInt(users.size()));
            boolean ok = random.nextInt(10) == 0 ? newPost(user) : comment(user, random);
            // A steady rate rather than as fast as possible (the projector keeps up, so a fault finds it busy but not
            // buried), and slower retries while the application is down or refusing (a kill, a broker restart).
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ok ? 10 : 50));
        }
    }

    private boolean newPost(String user) {
        sent.incrementAndGet();
        CrashClient.Answer answer = tally(client.send("POST", "/posts", user, Map.of("title", "Load", "body",
                "Under load")));
        if (!answer.accepted()) {
            return false;
        }
        acknowledged.incrementAndGet();
        String postId = answer.body().get("id").asText();
        ackedComments.put(postId, ConcurrentHashMap.newKeySet());
        ackedPosts.get(user).add(postId);
        return true;
    }

    private boolean comment(String user, SplittableRandom random) {
        String postId = commentable.get(random.nextInt(commentable.size()));
        sent.incrementAndGet();
        CrashClient.Answer answer = tally(client.send("POST", "/posts/" + postId + "/comments", user,
                Map.of("text", "c" + random.nextInt(1_000_000))));
        if (!answer.accepted()) {
            return false;
        }
        acknowledged.incrementAndGet();
        ackedComments.get(postId).add(answer.body().get("id").asText());
        return true;
    }

    private CrashClient.Answer tally(CrashClient.Answer answer) {
        answers.computeIfAbsent(answer.status(), status -> new AtomicLong()).incrementAndGet();
        return answer;
    }

    /** How often each status was answered (-1: no answer, the application was down). */
    Map<Integer, Long> answers() {
        Map<Integer, Long> counts = new java.util.TreeMap<>();
        answers.forEach((status, count) -> counts.put(status, count.get()));
        return counts;
    }

    String anySeededPost() {
        return commentable.get(0);
    }

    /** Records a comment acknowledged outside the load's threads. */
    void acknowledgedComment(String postId, String commentId) {
        acknowledged.incrementAndGet();
        ackedComments.get(postId).add(commentId);
    }

    Map<String, Set<String>> ackedComments() {
        return ackedComments;
    }

    Map<String, Set<String>> ackedPosts() {
        return ackedPosts;
    }

    long sent() {
        return sent.get();
    }

    long acknowledged() {
        return acknowledged.get();
    }
}
