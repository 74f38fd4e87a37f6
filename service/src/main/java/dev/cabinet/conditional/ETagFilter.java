package dev.cabinet.conditional;

import java.util.Optional;

import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import dev.cabinet.http.ETags;
import dev.cabinet.http.ProblemResponses;
import dev.cabinet.http.Problems;
import dev.cabinet.http.Tagged;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.table.query.ReadConsistency;
import dev.cabinet.table.TableReader;
import dev.cabinet.shared.InvalidIdException;
import dev.cabinet.table.Key;
import io.smallrye.mutiny.Uni;

/**
 * Conditional requests (RFC 9110): a single resource's GET sends its {@code ETag} (and answers 304 to a matching
 * {@code If-None-Match}); a command with {@code If-Match} goes ahead only if the resource it changes still has that tag,
 * read consistently from the read model, and is refused with 412 otherwise, before any event is written.
 */
public class ETagFilter {

    private final Instance<TaggedResource> resources;
    private final TableReader table;
    private final ReadConsistency consistency;

    ETagFilter(Instance<TaggedResource> resources, TableReader table, ReadConsistency consistency) {
        this.resources = resources;
        this.table = table;
        this.consistency = consistency;
    }

    @ServerRequestFilter
    public Uni<Response> requireMatch(ContainerRequestContext request) {
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

    @ServerResponseFilter
    public void sendTag(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getStatus() != 200 || !(response.getEntity() instanceof Tagged tagged) || tagged.etag() == null) {
            return;
        }
        response.getHeaders().putSingle(HttpHeaders.ETAG, tagged.etag());
        String ifNoneMatch = request.getHeaderString(HttpHeaders.IF_NONE_MATCH);
        if (HttpMethod.GET.equals(request.getMethod()) && ifNoneMatch != null
                && ETags.matches(ifNoneMatch, tagged.etag())) {
            response.setStatus(304);
            response.setEntity(null);
        }
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
