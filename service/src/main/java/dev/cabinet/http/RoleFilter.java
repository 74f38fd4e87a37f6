package dev.cabinet.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import dev.cabinet.role.Role;
import dev.cabinet.role.RoleConfig;

/**
 * Each instance answers only the paths of its role ({@link Role}), and 404 to the others, saying where they are
 * served; health and metrics ({@code /q/...}) are not REST paths and stay on every instance.
 */
public class RoleFilter {

    static final String ADMIN = "admin";

    private final Role role;

    RoleFilter(RoleConfig role) {
        this.role = role.role();
    }

    @ServerRequestFilter(preMatching = true)
    public Response refuseWhatThisRoleDoesNotServe(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        String relative = path.startsWith("/") ? path.substring(1) : path;
        boolean admin = relative.equals(ADMIN) || relative.startsWith(ADMIN + "/");
        if (admin ? role.servesAdmin() : role.servesApi()) {
            return null;
        }
        return ProblemResponses.of(404, "urn:cabinet:problem:not-found", "Not found", elsewhere(admin), path, null);
    }

    private String elsewhere(boolean admin) {
        String here = switch (role) {
            case PROJECTOR -> "this instance runs the projector only (cabinet.role=projector)";
            case OPERATOR -> "this instance serves the operators' endpoints only (cabinet.role=operator)";
            default -> "this instance serves the public API only (cabinet.role=api)";
        };
        return here + (admin ? "; the operators' endpoints are served by the operator instances (cabinet-operator)"
                : "; the API is served elsewhere");
    }
}
