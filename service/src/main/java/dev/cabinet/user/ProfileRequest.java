package dev.cabinet.user;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import dev.cabinet.http.TextRules;

/** The body of {@code PUT /users/{id}}: the whole profile. */
public record ProfileRequest(
        @NotBlank @Size(max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS) String name,
        @NotBlank @Email @Size(max = TextRules.EMAIL_MAX) String email,
        @Size(max = TextRules.URL_MAX) @Pattern(regexp = TextRules.HTTP_URL) String avatarUrl) {
}
