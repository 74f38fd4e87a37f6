package dev.cabinet.user;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.shared.TextRules;

/** The body of {@code PUT /users/{id}}: the whole profile. */
public record ProfileRequest(
        @Schema(example = "Ada Lovelace")
        @NotBlank @Size(max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS) String name,
        @Schema(example = "ada@example.org") @NotBlank @Email @Size(max = TextRules.EMAIL_MAX) String email,
        @Schema(example = "https://example.org/ada.png")
        @Size(max = TextRules.URL_MAX) @Pattern(regexp = TextRules.HTTP_URL) String avatarUrl) {
}
