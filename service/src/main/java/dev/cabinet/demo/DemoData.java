package dev.cabinet.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import dev.cabinet.customer.CustomerEvent;
import dev.cabinet.customer.CustomerEvent.CustomerRegistered;
import dev.cabinet.customer.CustomerEvent.OrderPlaced;
import dev.cabinet.eventlog.EventLog;
import dev.cabinet.folder.FileEvent;
import dev.cabinet.folder.FileEvent.FileStored;
import dev.cabinet.folder.FileEvent.FileUploaded;
import dev.cabinet.folder.FilesConfig;
import dev.cabinet.folder.FolderEvent;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.group.GroupEvent;
import dev.cabinet.group.GroupEvent.GroupCreated;
import dev.cabinet.group.GroupEvent.MemberJoined;
import dev.cabinet.group.GroupRole;
import dev.cabinet.iam.AwsCallLog;
import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.metrics.MetricsEvent;
import dev.cabinet.metrics.MetricsEvent.MetricsRecorded;
import dev.cabinet.metrics.MetricsEvent.Sample;
import dev.cabinet.post.CommentEvent;
import dev.cabinet.post.CommentEvent.CommentAdded;
import dev.cabinet.post.LikeEvent;
import dev.cabinet.post.LikeEvent.PostLiked;
import dev.cabinet.post.PostEvent;
import dev.cabinet.post.PostEvent.PostCreated;
import dev.cabinet.post.PostEvent.PostPublished;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.shared.Timestamps;
import dev.cabinet.user.UserEvent;
import dev.cabinet.user.UserEvent.UserRegistered;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/**
 * Loads the seeds' own examples into an empty table when dev mode starts, by appending their events to the log like
 * any client's commands would: John and Jane, John's post with comments, the Developers group, a folder with a report,
 * a server's metrics, and customers C001 and C002 with orders O100 and O105. A newcomer's first curl finds data. The
 * report's bytes (a one-page PDF) go to the bucket as a client's upload would, so it downloads like any stored file;
 * the upload's PUT is the API's permission (demo data loads in an instance that serves the API, in dev mode only).
 */
@ApplicationScoped
@CallsAws(IamRole.API)
public class DemoData {

    private static final Logger LOG = Logger.getLogger(DemoData.class);
    static final String POST_ID = "johns-first-post";
    private static final String SYSTEM = "cabinet-demo";
    /**
     * When the examples happened: fixed, so that a second load (a live reload before the first load's John was
     * projected, or a second dev instance) makes the same comments and likes, which the projectors take as repeats,
     * rather than copies at new times. Only the metrics are of the last hour, so that a range ending now finds them.
     */
    static final Instant HAPPENED = Instant.parse("2026-06-01T08:00:00Z");

    private static final String REPORT_ID = "report-2026";
    private static final String REPORT_KEY = "folders/reports/files/" + REPORT_ID;
    private static final String PDF = "application/pdf";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final DemoDataConfig config;
    private final EventLog log;
    private final TableReader table;
    private final S3Presigner presigner;
    private final FilesConfig files;
    private final AwsCallLog callLog;

    DemoData(DemoDataConfig config, EventLog log, TableReader table, S3Presigner presigner, FilesConfig files,
            AwsCallLog callLog) {
        this.config = config;
        this.log = log;
        this.table = table;
        this.presigner = presigner;
        this.files = files;
        this.callLog = callLog;
    }

    void onStart(@Observes StartupEvent event) {
        if (!config.enabled()) {
            return;
        }
        if (LaunchMode.current() != LaunchMode.DEVELOPMENT) {
            // Every replica would load them at once, and a production table is no place for John and Jane.
            LOG.warnf("cabinet.demo-data.enabled is for dev mode only: no demo data in %s mode", LaunchMode.current());
            return;
        }
        // Started from a thread of its own: begun here, the load ran in a copy of this observer's request context,
        // which ends when the observer returns, and an append that came after that failed to make its ids
        // (ContextNotActiveException for CommandIds, seen once in CI when the store answered slowly).
        Thread loader = new Thread(this::loadUnlessPresent, "cabinet-demo-data");
        loader.setDaemon(true);
        loader.start();
    }

    private void loadUnlessPresent() {
        loadIfAbsent().subscribe().with(
                        loaded -> LOG.infof(loaded ? "Demo data sent (cabinet.demo-data.enabled): try GET /users/john"
                                : "Demo data already present"),
                        failure -> LOG.warnf("Demo data could not be loaded: %s", failure.toString()));
    }

    /** Sends the examples unless John is registered already: {@code true} once they were sent. */
    Uni<Boolean> loadIfAbsent() {
        return table.get(KeyPlan.USER_PROFILE.key("john"))
                .chain(john -> john.isPresent() ? Uni.createFrom().item(false) : load().replaceWith(true));
    }

    /** Sends the examples' events; a second time changes nothing but the metrics' last hour. */
    Uni<Void> load() {
        Instant now = HAPPENED;
        String at = Timestamps.format(now);
        return Uni.createFrom().voidItem()
                .chain(() -> log.append(UserEvent.REGISTERED, new UserRegistered("john", "John", "john@example.com", null,
                        at), "john"))
                .chain(() -> log.append(UserEvent.REGISTERED, new UserRegistered("jane", "Jane", "jane@example.com",
                        "https://example.com/jane.png", at), "jane"))
                .chain(() -> log.append(PostEvent.CREATED, new PostCreated(POST_ID, "john", "My Post",
                        "Single-table design, one cabinet per customer.", at), "john"))
                .chain(() -> log.append(PostEvent.PUBLISHED, new PostPublished(POST_ID, at), "john"))
                .chain(() -> log.append(CommentEvent.ADDED, new CommentAdded(POST_ID, "janes-comment", "jane",
                        "Great post!", Timestamps.format(now.plusSeconds(1))), "jane"))
                .chain(() -> log.append(CommentEvent.ADDED, new CommentAdded(POST_ID, "johns-reply", "john",
                        "Thanks, Jane!", Timestamps.format(now.plusSeconds(2))), "john"))
                .chain(() -> projected(KeyPlan.POST.key(POST_ID)))
                .chain(() -> log.append(LikeEvent.LIKED, new PostLiked(POST_ID, "jane", Timestamps.format(
                        now.plusSeconds(3))), "jane"))
                .chain(() -> log.append(LikeEvent.LIKED, new PostLiked(POST_ID, "john", Timestamps.format(
                        now.plusSeconds(4))), "john"))
                .chain(() -> log.append(GroupEvent.CREATED, new GroupCreated("developers", "Developers",
                        "People who build Cabinet", "john", at), "john"))
                .chain(() -> log.append(GroupEvent.MEMBER_JOINED, new MemberJoined("developers", "jane", GroupRole.MEMBER,
                        at), "jane"))
                .chain(() -> log.append(FolderEvent.CREATED, new FolderCreated("documents", "Documents", null, "john", at),
                        "john"))
                .chain(() -> projected(KeyPlan.FOLDER.key("documents")))
                .chain(() -> log.append(FolderEvent.CREATED, new FolderCreated("reports", "Reports", "documents", "john",
                        at), "john"))
                .chain(() -> projected(KeyPlan.FOLDER.key("reports")))
                .chain(() -> log.append(FileEvent.UPLOADED, new FileUploaded(REPORT_ID, "reports", "report.pdf",
                        report().length, PDF, "s3://" + files.bucket() + "/" + REPORT_KEY, at, "john"), "john"))
                .chain(this::uploadReport)
                .chain(() -> log.append(FileEvent.STORED, new FileStored(REPORT_ID, report().length, PDF, at), "john"))
                .chain(() -> log.append(MetricsEvent.RECORDED, new MetricsRecorded("web-1",
                        samples(Instant.now())), SYSTEM))
                .chain(() -> log.append(CustomerEvent.REGISTERED, new CustomerRegistered("C001", "Ada Lovelace",
                        "ada@example.com"), SYSTEM))
                .chain(() -> log.append(CustomerEvent.REGISTERED, new CustomerRegistered("C002", "Alan Turing",
                        "alan@example.com"), SYSTEM))
                .chain(() -> log.append(CustomerEvent.ORDER_PLACED, new OrderPlaced("C001", "O100", "2026-06-01",
                        "2026-06-01T09:30:00.000Z", "99.99"), SYSTEM))
                .chain(() -> log.append(CustomerEvent.ORDER_PLACED, new OrderPlaced("C001", "O105", "2026-06-09",
                        "2026-06-09T15:00:00.000Z", "12.50"), SYSTEM))
                .replaceWithVoid();
    }

    /**
     * PUTs the report's bytes to a presigned URL with a plain HTTP client, exactly as a client uploads (the SDK's own PUT
     * would add checksum trailers that the local S3 does not read).
     */
    private Uni<Void> uploadReport() {
        callLog.record("s3:PutObject", IamRole.Resource.OBJECT);
        byte[] bytes = report();
        PresignedPutObjectRequest presigned = presigner.presignPutObject(request -> request
                .signatureDuration(Duration.ofMinutes(1))
                .putObjectRequest(put -> put.bucket(files.bucket()).key(REPORT_KEY).contentType(PDF)
                        .contentLength((long) bytes.length)));
        HttpRequest put = HttpRequest.newBuilder(URI.create(presigned.url().toString()))
                .header("Content-Type", PDF).PUT(HttpRequest.BodyPublishers.ofByteArray(bytes)).build();
        return Uni.createFrom().completionStage(() -> HTTP.sendAsync(put, HttpResponse.BodyHandlers.ofString()))
                .map(answer -> {
                    if (answer.statusCode() != 200) {
                        throw new IllegalStateException("the report's upload answered " + answer.statusCode() + ": "
                                + answer.body());
                    }
                    return answer;
                })
                .replaceWithVoid();
    }

    private static byte[] report() {
        try (InputStream in = DemoData.class.getResourceAsStream("/demo/report.pdf")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A sample a minute for the last hour, on whole minutes and each of values from its own minute: a second load
     * within the minute writes the same items, and a later one the same values where the hours overlap.
     */
    private static List<Sample> samples(Instant now) {
        List<Sample> samples = new ArrayList<>();
        Instant lastMinute = now.truncatedTo(ChronoUnit.MINUTES);
        for (int ago = 60; ago > 0; ago--) {
            Instant at = lastMinute.minus(Duration.ofMinutes(ago));
            long minute = at.getEpochSecond() / 60;
            samples.add(new Sample(Timestamps.format(at), 40 + minute % 20, 60 + minute % 10, 1000 + minute % 60 * 10));
        }
        return samples;
    }

    /**
     * Waits until the item exists: a child folder or file needs its folder projected first, a like its post (other
     * streams).
     */
    private Uni<Void> projected(Key key) {
        return table.get(key)
                .map(item -> item.orElseThrow(() -> new IllegalStateException(key + " is not projected yet")))
                .onFailure(IllegalStateException.class).retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(1))
                .atMost(120)
                .replaceWithVoid();
    }
}
