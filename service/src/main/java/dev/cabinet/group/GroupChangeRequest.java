package dev.cabinet.group;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.cabinet.shared.NotBlankWhenGiven;
import dev.cabinet.shared.TextRules;

/** The body of {@code PATCH /groups/{id}}: the fields to change. */
public record GroupChangeRequest(
        @Schema(example = "Difference engines")
        @Size(min = 1, max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.NO_CONTROL_CHARACTERS)
        @NotBlankWhenGiven String name,
        @Size(max = TextRules.DESCRIPTION_MAX) @Pattern(regexp = TextRules.MULTILINE_TEXT) String description) {

    @JsonIgnore
    @AssertTrue(message = "must change at least one of name, description")
    public boolean isChange() {
        return name != null || description != null;
    }
}
