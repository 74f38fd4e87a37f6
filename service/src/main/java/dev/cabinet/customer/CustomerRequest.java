package dev.cabinet.customer;

import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.shared.TextRules;

/** The body of {@code PUT /customers/{id}}. */
public record CustomerRequest(
        @Schema(example = "Acme Ltd")
        @NotBlank @Size(max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS) String name,
        @Schema(example = "orders@acme.example") @NotBlank @Email @Size(max = TextRules.EMAIL_MAX) String email) {
}
