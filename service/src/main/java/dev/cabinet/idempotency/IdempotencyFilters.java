package dev.cabinet.idempotency;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.common.core.BlockingNotAllowedException;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.conditional.IfMatch;
import dev.cabinet.consistency.ConsistencyConfig;
import dev.cabinet.consistency.PreferWaitFilter;
import dev.cabinet.eventlog.CommandIds;
import dev.cabinet.http.DeadlineConfig;
import dev.cabinet.http.Problem;
import dev.cabinet.http.ProblemResponses;
import dev.cabinet.http.Problems;
import dev.cabinet.http.RequestDeadline;
import dev.cabinet.http.UnknownOutcome;
import dev.cabinet.table.IdempotentRequests;
import dev.cabinet.table.IdempotentRequests.Reservation;
import dev.cabinet.table.Items;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;

/**
 * Safe retries of commands: a command sent with {@value #HEADER} runs once per caller and key. A retry with the same
 * request gets the stored answer again (same event id and position, {@code Idempotent-Replayed: true}), even from
 * another instance or after a restart; the same key with another request is a 422; a retry while the first is still
 * running is a 409. A refused or failed request frees its key, so a corrected retry may reuse it; but a request whose
 * outcome is unknown (the log did not acknowledge its event in time) keeps it: its retry runs again with the same ids
 * ({@link CommandIds}), so it appends the same event and creates the same resource, never a second one. The
 * reservation counts against the request deadline, and the key's outcome is stored within it without ever changing the
 * answer ({@link RequestDeadline#settle}).
 */
public class IdempotencyFilters {

    public static final String HEADER = "Idempotency-Key";
    /**
     * Set on a request whose event the log acknowledged, by a filter that then changes its answer (a {@code Prefer:
     * wait} that ends in 409 rejected): the key keeps that answer, since a retry must not append the event again.
     */
    public static final String APPENDED = "cabinet.idempotency.appended";
    private static final String PROPERTY = "cabinet.idempotency.request";
    /** Set when the request took over an earlier attempt whose event may be in the log: it never frees the key. */
    private static final String TAKES_OVER = "cabinet.idempotency.takes-over";
    /** The reservation's holder: the request that may settle the key. */
    private static final String HOLDER = "cabinet.idempotency.holder";
    private static final Set<String> COMMANDS = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final IdempotentRequests requests;
    private final CurrentIdentityAssociation identity;
    private final ObjectMapper json;
    private final CommandIds ids;
    private final RequestDeadline deadline;
    private final IfMatch ifMatch;
    private final Duration holdFor;

    IdempotencyFilters(IdempotentRequests requests, CurrentIdentityAssociation identity, ObjectMapper json,
            CommandIds ids, RequestDeadline deadline, IfMatch ifMatch, DeadlineConfig deadlines,
            ConsistencyConfig waits) {
        // A reservation outlasts the longest answer its request can take (the deadline, then a Prefer: wait, its
        // answer stored after the wait): until then a retry is told the first is running, not let in beside it.
        this.holdFor = max(IdempotentRequests.RESERVATION, deadlines.deadline().plus(waits.maxPreferWait())
                .plusSeconds(5));
        this.ifMatch = ifMatch;
        this.requests = requests;
        this.identity = identity;
        this.json = json;
        this.ids = ids;
        this.deadline = deadline;
    }

    /**
     * The body, read ahead (readBody) and put back for the resource. A command that takes no body (a DELETE, a publish)
     * does not get it read ahead; whatever a client sent there is ignored by the command, so the fingerprint too
     * ignores it (reading it here would block the I/O thread).
     */
    private static byte[] bodyOf(ContainerRequestContext request) throws IOException {
        if (!request.hasEntity()) {
            return new byte[0];
        }
        try {
            byte[] body = request.getEntityStream().readAllBytes();
            request.setEntityStream(new ByteArrayInputStream(body));
            return body;
        } catch (BlockingNotAllowedException e) {
            return new byte[0];
        }
    }

    /**
     * A command's key, then its {@code If-Match} ({@link IfMatch}), in that order and in one filter: a retry of a
     * request that went through is replayed, not refused with a 412 about the change it made itself. (Filters that read
     * the body run after the others, and in this Quarkus in the reverse of their priorities: two filters would not
     * keep an order.) An anonymous caller's command answers 401 itself, before either.
     */
    @ServerRequestFilter(readBody = true)
    public Uni<Response> reserveOrReplay(ContainerRequestContext request) throws IOException {
        if (!COMMANDS.contains(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        String key = request.getHeaderString(HEADER);
        if (key == null) {
            // The If-Match read is the request's work too: bounded by its deadline, whose clock starts here.
            return !IfMatch.conditional(request) ? Uni.createFrom().nullItem()
                    : identity.getDeferredIdentity().chain(caller -> caller.isAnonymous() ? Uni.createFrom().nullItem()
                            : deadline.bound(ifMatch.check(request)));
        }
        String path = request.getUriInfo().getPath();
        if (key.isEmpty() || key.length() > 255 || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            return Uni.createFrom().item(ProblemResponses.of(Problems.badRequest(HEADER,
                    "must be 1 to 255 visible ASCII characters"), path));
        }
        byte[] body = bodyOf(request);
        // The query string is part of the request (an operator's discard of one event or of all of them).
        String query = request.getUriInfo().getRequestUri().getRawQuery();
        String fingerprint = sha256(request.getMethod() + " " + path + (query == null ? "" : "?" + query) + "\n", body);
        return identity.getDeferredIdentity().chain(caller -> {
            if (caller.isAnonymous()) {
                return Uni.createFrom().nullItem();   // the command answers 401 itself
            }
            // Keys are the caller's own: scoped by the token's subject, the id a command acts as (Caller), not by a
            // display name two subjects could share.
            String subject = caller.getPrincipal() instanceof JsonWebToken token && token.getSubject() != null
                    ? token.getSubject() : caller.getPrincipal().getName();
            String requestId = sha256(subject + "\n" + key + "\n", new byte[0]);
            deadline.keyed();
            return deadline.bound(requests.reserve(requestId, fingerprint, holdFor).chain(claim -> {
                Optional<Reservation> reserved = claim.reserved();
                if (reserved.isPresent()) {
                    request.setProperty(PROPERTY, requestId);
                    request.setProperty(HOLDER, reserved.get().holder());
                    if (reserved.get().takesOver()) {
                        request.setProperty(TAKES_OVER, Boolean.TRUE);
                    }
                    ids.seed(reserved.get().seed());
                    // Refused, the key is freed with the 412 (or, for a takeover, left unknown: storeOrRelease).
                    return ifMatch.check(request);
                }
                return Uni.createFrom().item(claim.held()).map(found -> {
                    if (found.isEmpty()) {
                        return inUse(path, "was released meanwhile; send the request again");
                    }
                    if (!fingerprint.equals(Items.string(found.get(), "fingerprint"))) {
                        return ProblemResponses.of(422, Problems.TYPE_PREFIX + "idempotency-key-reused",
                                "Idempotency-Key reused", "this Idempotency-Key was used with another request",
                                path, null);
                    }
                    if (!IdempotentRequests.isDone(found.get())) {
                        return inUse(path, "belongs to a request that is still running; retry shortly");
                    }
                    int status = (int) Items.number(found.get(), "status");
                    String stored = Items.string(found.get(), "body");
                    Response.ResponseBuilder replay = Response.status(status).header("Idempotent-Replayed", "true");
                    if (stored != null) {   // an answer without a body (a file's completion) is replayed without one
                        replay.type(status >= 400 ? Problem.MEDIA_TYPE : MediaType.APPLICATION_JSON).entity(stored);
                    }
                    String location = Items.string(found.get(), "location");
                    if (location != null) {
                        replay.location(URI.create(location));
                    }
                    String preferenceApplied = Items.string(found.get(), "preferenceApplied");
                    if (preferenceApplied != null) {
                        replay.header(PreferWaitFilter.PREFERENCE_APPLIED, preferenceApplied);
                    }
                    return replay.build();
                });
            }));
        });
    }

    @ServerResponseFilter
    public Uni<Void> storeOrRelease(ContainerRequestContext request, ContainerResponseContext response) {
        Object requestId = request.getProperty(PROPERTY);
        if (requestId == null) {
            return Uni.createFrom().voidItem();
        }
        // Whatever the store does with these writes, the answer stays what the command did (see RequestDeadline).
        boolean appended = request.getProperty(APPENDED) != null;
        boolean takesOver = request.getProperty(TAKES_OVER) != null;
        KeyOutcome outcome = KeyOutcome.of(response.getStatus(), response.getEntity() instanceof UnknownOutcome,
                appended, takesOver);
        String body = null;
        if (outcome == KeyOutcome.STORE) {
            try {
                body = response.getEntity() == null ? null : json.writeValueAsString(response.getEntity());
            } catch (IOException e) {
                outcome = KeyOutcome.unstored(appended, takesOver);
            }
        }
        String holder = (String) request.getProperty(HOLDER);
        if (outcome == KeyOutcome.KEEP_UNKNOWN) {
            return deadline.settle(requests.outcomeUnknown((String) requestId, holder), "keeping its Idempotency-Key");
        }
        if (outcome == KeyOutcome.RELEASE) {
            return deadline.settle(requests.release((String) requestId, holder), "freeing its Idempotency-Key");
        }
        return deadline.settle(requests.complete((String) requestId, holder, response.getStatus(), body,
                header(response, HttpHeaders.LOCATION), header(response, PreferWaitFilter.PREFERENCE_APPLIED)),
                "storing its answer under its Idempotency-Key");
    }

    private static String header(ContainerResponseContext response, String name) {
        Object value = response.getHeaders().getFirst(name);
        return value == null ? null : value.toString();
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** Not the command's conflict with the state: the same request again will go through shortly. */
    private static Response inUse(String path, String what) {
        return Response.fromResponse(ProblemResponses.of(409, Problems.TYPE_PREFIX + "idempotency-key-in-use",
                "Idempotency-Key in use", "this " + HEADER + " " + what, path, null))
                .header(HttpHeaders.RETRY_AFTER, "1").build();
    }

    private static String sha256(String prefix, byte[] body) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(prefix.getBytes(StandardCharsets.UTF_8));
            digest.update(body);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
