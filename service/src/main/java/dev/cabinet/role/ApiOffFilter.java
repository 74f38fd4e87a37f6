package dev.cabinet.role;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.cabinet.http.ProblemResponses;

/** On a projector-only instance, the API answers 404 to everything; health and metrics ({@code /q/...}) stay. */
public class ApiOffFilter {

    private final boolean servesApi;

    ApiOffFilter(@ConfigProperty(name = Role.PROPERTY, defaultValue = "both") String role) {
        this.servesApi = Role.parse(role).servesApi();
    }

    @ServerRequestFilter(preMatching = true)
    public Response refuseOnProjectorInstances(ContainerRequestContext request) {
        if (servesApi) {
            return null;
        }
        return ProblemResponses.of(404, "urn:cabinet:problem:not-found", "Not found",
                "this instance runs the projector only (cabinet.role=projector); the API is served elsewhere",
                request.getUriInfo().getPath(), null);
    }
}
