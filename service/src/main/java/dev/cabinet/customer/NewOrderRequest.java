package dev.cabinet.customer;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import dev.cabinet.http.StringOnly;
import dev.cabinet.shared.Ids;

/**
 * The body of {@code POST /customers/{id}/orders}: the total, and optionally the order's id (for clients that bring
 * their own, such as O100) and when it was placed (default: now); the order's date is that instant's UTC date. The
 * total is a decimal string, as in the events ({@link OrderTotal}); a JSON number is refused.
 */
public record NewOrderRequest(
        @Pattern(regexp = Ids.PATTERN) String orderId,
        String placedAt,
        @Schema(example = "129.90", pattern = OrderTotal.PATTERN, description = OrderTotal.DESCRIPTION)
        @JsonDeserialize(using = StringOnly.class)
        @NotNull @Pattern(regexp = OrderTotal.PATTERN, message = "must be " + OrderTotal.DESCRIPTION) String total) {
}
