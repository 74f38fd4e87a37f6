package dev.cabinet.group;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.cabinet.shared.TextRules;

/** The body of {@code POST /groups}. */
public record NewGroupRequest(
        @Schema(example = "Engines")
        @NotBlank @Size(max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS) String name,
        @Schema(example = "Analytical ones")
        @Size(max = TextRules.DESCRIPTION_MAX) @Pattern(regexp = TextRules.MULTILINE_TEXT) String description) {
}
