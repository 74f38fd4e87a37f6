package dev.cabinet.user;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.cabinet.shared.NotBlankWhenGiven;
import dev.cabinet.shared.TextRules;

/** The body of {@code PATCH /users/{id}}: the fields to change; absent ones stay as they are. */
public record ProfileChangeRequest(
        @Schema(example = "Ada King")
        @Size(min = 1, max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS)
        @NotBlankWhenGiven String name,
        @Email @Size(min = 3, max = TextRules.EMAIL_MAX) String email,
        @Size(max = TextRules.URL_MAX) @Pattern(regexp = TextRules.HTTP_URL) String avatarUrl) {

    @JsonIgnore
    @AssertTrue(message = "must change at least one of name, email, avatarUrl")
    public boolean isChange() {
        return name != null || email != null || avatarUrl != null;
    }
}
