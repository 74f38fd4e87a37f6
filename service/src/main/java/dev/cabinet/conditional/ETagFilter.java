package dev.cabinet.conditional;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;

/**
 * Conditional reads (RFC 9110): a single resource's GET sends its {@code ETag}, and answers 304 to a matching
 * {@code If-None-Match}. A command's {@code If-Match} is {@link IfMatch}.
 */
public class ETagFilter {

    @ServerResponseFilter
    public void sendTag(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getStatus() != 200 || !(response.getEntity() instanceof Tagged tagged) || tagged.etag() == null) {
            return;
        }
        response.getHeaders().putSingle(HttpHeaders.ETAG, tagged.etag());
        String ifNoneMatch = request.getHeaderString(HttpHeaders.IF_NONE_MATCH);
        if (HttpMethod.GET.equals(request.getMethod()) && ifNoneMatch != null
                && ETags.holdsThisRepresentation(ifNoneMatch, tagged.etag())) {
            response.setStatus(304);
            response.setEntity(null);
        }
    }
}
