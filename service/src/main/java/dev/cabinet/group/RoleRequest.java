package dev.cabinet.group;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The body of {@code PATCH /groups/{id}/members/{userId}}, and the optional body of the join. */
public record RoleRequest(
        @Schema(example = "member")
        @NotNull @Pattern(regexp = GroupRole.PATTERN, message = "must be admin or member") String role) {
}
