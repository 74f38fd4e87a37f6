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
 * A command's {@code If-Match} (RFC 9110): it goes ahead only if the resource it changes still has that tag, read
 * consistently from the read model, and is refused with 412 otherwise, before any event is written. Checked by the
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

    /** The refusal of the request, or null when it has no {@code If-Match} or its tag is current. */
    public Uni<Response> check(ContainerRequestContext request) {
        String ifMatch = request.getHeaderString(HttpHeaders.IF_MATCH);
        if (ifMatch == null || HttpMethod.GET.equals(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        String path = request.getUriInfo().getPath();
        Optional<Key> item = resources.stream().map(resource -> changedBy(resource, path))
                .flatMap(Optional::stream).findFirst();
        if (item.isEmpty()) {
            return Uni.createFrom().item(ProblemResponses.of(400, Problems.TYPE_PREFIX + "validation",
                    "Invalid request", "If-Match is not supported on " + request.getMethod() + " " + path, path, null));
        }
        consistency.requireStrong();
        return table.get(item.get()).map(found -> {
            String current = found.map(ETags::of).orElse(null);
            if (ETags.matches(ifMatch, current)) {
                return null;
            }
            Response refused = ProblemResponses.of(412, Problems.TYPE_PREFIX + "precondition-failed",
                    "Precondition failed", current == null ? "the resource does not exist"
                            : "the resource has changed since it was read (its ETag is now " + current
                                    + "); read it again and retry",
                    path, null);
            return current == null ? refused : Response.fromResponse(refused).tag(unquoted(current)).build();
        });
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
