package dev.cabinet.conditional;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import dev.cabinet.http.ETags;
import dev.cabinet.http.ProblemResponses;
import dev.cabinet.http.Problems;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.shared.InvalidIdException;
import dev.cabinet.table.Key;
import dev.cabinet.table.TableReader;
import dev.cabinet.table.query.ReadConsistency;
import io.smallrye.mutiny.Uni;

/**
 * A command's {@code If-Match} and {@code If-None-Match} (RFC 9110): it goes ahead only if the resource it changes
 * still has one of the tags listed (exists, for {@code *}), and none of those listed in {@code If-None-Match}
 * ({@code *}: only if it does not exist yet, a create-only {@code PUT}), read consistently from the read model, and is
 * refused with 412 otherwise, before any event is written. Checked by the
 * command filter ({@code IdempotencyFilters}) after an {@code Idempotency-Key}'s lookup, so that a retry of a command
 * that went through gets its answer again rather than a 412 about the change it made itself.
 */
@ApplicationScoped
public class IfMatch {

    private final Instance<TaggedResource> resources;
    private final TableReader table;
    private final ReadConsistency consistency;

    IfMatch(Instance<TaggedResource> resources, TableReader table, ReadConsistency consistency) {
        this.resources = resources;
        this.table = table;
        this.consistency = consistency;
    }

    /** Whether the request carries a precondition this checks. */
    public static boolean conditional(ContainerRequestContext request) {
        return request.getHeaderString(HttpHeaders.IF_MATCH) != null
                || request.getHeaderString(HttpHeaders.IF_NONE_MATCH) != null;
    }

    /** The refusal of the request, or null when it has no precondition or its preconditions hold. */
    public Uni<Response> check(ContainerRequestContext request) {
        String ifMatch = request.getHeaderString(HttpHeaders.IF_MATCH);
        String ifNoneMatch = request.getHeaderString(HttpHeaders.IF_NONE_MATCH);
        if (ifMatch == null && ifNoneMatch == null || HttpMethod.GET.equals(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        String path = request.getUriInfo().getPath();
        Optional<Key> item = resources.stream().map(resource -> changedBy(resource, path))
                .flatMap(Optional::stream).findFirst();
        if (item.isEmpty()) {
            String header = ifMatch != null ? HttpHeaders.IF_MATCH : HttpHeaders.IF_NONE_MATCH;
            return Uni.createFrom().item(ProblemResponses.of(400, Problems.TYPE_PREFIX + "validation",
                    "Invalid request", header + " is not supported on " + request.getMethod() + " " + path, path,
                    null));
        }
        consistency.requireStrong();
        return table.get(item.get()).map(found -> {
            String current = found.map(ETags::of).orElse(null);
            // RFC 9110, 13.2.2: If-Match first, then If-None-Match (compared weakly; for a command, a match refuses).
            if (ifMatch != null && !ETags.matches(ifMatch, current)) {
                return refused(path, current, current == null ? "the resource does not exist"
                        : "the resource has changed since it was read (its ETag is now " + current
                                + "); read it again and retry");
            }
            if (ifNoneMatch != null && current != null && (ETags.holdsThisRepresentation(ifNoneMatch, current)
                    || ETags.matches(ifNoneMatch, current))) {
                return refused(path, current, "*".equals(ifNoneMatch.strip()) ? "the resource exists already"
                        : "the resource still has a tag If-None-Match lists (" + current + ")");
            }
            return null;
        });
    }

    private static Response refused(String path, String current, String detail) {
        Response refused = ProblemResponses.of(412, Problems.TYPE_PREFIX + "precondition-failed",
                "Precondition failed", detail, path, null);
        return current == null ? refused : Response.fromResponse(refused).tag(unquoted(current)).build();
    }

    private static Optional<Key> changedBy(TaggedResource resource, String path) {
        try {
            return resource.itemChangedBy(path);
        } catch (InvalidIdException e) {
            return Optional.empty();   // not a valid id: the resource itself answers 400
        }
    }

    private static EntityTag unquoted(String tag) {
        return new EntityTag(tag.substring(1, tag.length() - 1));
    }
}
