// The components of the OpenAPI document of /api (./document.server.ts): request bodies from the
// input side of the routes' own schemas, answers from the output side of ./answers.ts. An operation
// (./operation.ts) names them.
import type { z } from "zod";
import * as A from "~/lib/openapi/answers";
import {
  MessageSuggestionsInputSchema,
  ReceiptsBodySchema,
  SuppressionAddInputSchema,
} from "~/schemas/api-inputs.server";
import { CampaignApiSchema } from "~/schemas/campaign";
import { ResendNonOpenersSchema } from "~/schemas/campaign-resend";
import { CustomerApiSchema } from "~/schemas/customer";
import { FieldChangeSchema, NewFieldSchema } from "~/schemas/custom-field";
import {
  TagCustomersInputSchema,
  TagRenameInputSchema,
  TagsInputSchema,
  UntagCustomersInputSchema,
} from "~/schemas/tag";
import { SendgridEventsSchema } from "~/schemas/feedback-webhooks";
import { OrderSchema, OrderUpdateSchema } from "~/schemas/order";
import { ProfileSchema } from "~/schemas/profile";
import { PreviewInputSchema, SegmentInputSchema } from "~/schemas/segment";
import { DescribeSegmentInputSchema } from "~/schemas/segment-ai";
import { BrandInputSchema } from "~/schemas/brand";
import { EventsInputSchema } from "~/schemas/events";
import { FlowInputSchema } from "~/schemas/flow";
import { TemplateDraftSchema, TemplateInputSchema, TemplateRenderSchema, TemplateTestSchema } from "~/schemas/template";

/** Request bodies, converted from the input side of the routes' own schemas. */
export const INPUTS = {
  OrderInput: OrderSchema,
  OrderUpdateInput: OrderUpdateSchema,
  CustomerInput: CustomerApiSchema,
  FieldInput: NewFieldSchema,
  FieldChangeInput: FieldChangeSchema,
  TagsInput: TagsInputSchema,
  TagCustomersInput: TagCustomersInputSchema,
  UntagCustomersInput: UntagCustomersInputSchema,
  TagRenameInput: TagRenameInputSchema,
  SegmentInput: SegmentInputSchema,
  SegmentPreviewInput: PreviewInputSchema,
  SegmentDescribeInput: DescribeSegmentInputSchema,
  CampaignInput: CampaignApiSchema,
  ResendNonOpenersInput: ResendNonOpenersSchema,
  ProfileInput: ProfileSchema,
  MessageSuggestionsInput: MessageSuggestionsInputSchema,
  DeliveryReceipts: ReceiptsBodySchema,
  SendgridEvents: SendgridEventsSchema,
  SuppressionsInput: SuppressionAddInputSchema,
  TemplateInput: TemplateInputSchema,
  TemplateRenderInput: TemplateRenderSchema,
  TemplateDraftInput: TemplateDraftSchema,
  TemplateTestInput: TemplateTestSchema,
  BrandInput: BrandInputSchema,
  EventsInput: EventsInputSchema,
  FlowInput: FlowInputSchema,
} satisfies Record<string, z.ZodType>;

/** Answers, converted from the output side. */
export const ANSWERS = {
  ApiError: A.ApiErrorSchema,
  Success: A.SuccessSchema,
  SuccessMessage: A.SuccessMessageSchema,
  PublicUser: A.PublicUserSchema,
  CurrentUser: A.CurrentUserSchema,
  Profile: A.ProfileAnswerSchema,
  Notification: A.NotificationSchema,
  NotificationList: A.NotificationListSchema,
  ReadAll: A.ReadAllSchema,
  Order: A.OrderAnswerSchema,
  Customer: A.CustomerAnswerSchema,
  CustomerRecord: A.CustomerRecordSchema,
  CustomerDetail: A.CustomerDetailSchema,
  Field: A.FieldAnswerSchema,
  FieldDeleted: A.FieldDeletedSchema,
  Tag: A.TagAnswerSchema,
  CustomerTags: A.CustomerTagsSchema,
  Tagged: A.TaggedSchema,
  TagDeleted: A.TagDeletedSchema,
  Untagged: A.UntaggedSchema,
  CustomerDeleted: A.CustomerDeletedSchema,
  CustomerStoryEntry: A.CustomerStoryEntrySchema,
  ImportResult: A.ImportResultSchema,
  Segment: A.SegmentAnswerSchema,
  SegmentWithCount: A.SegmentWithCountSchema,
  SavedSegment: A.SavedSegmentSchema,
  SegmentDeleted: A.SegmentDeletedSchema,
  AudienceCustomer: A.AudienceCustomerSchema,
  AudienceCount: A.AudienceCountSchema,
  AudiencePreview: A.AudiencePreviewSchema,
  BuilderRow: A.BuilderRowSchema,
  SegmentDescription: A.SegmentDescriptionSchema,
  Campaign: A.CampaignAnswerSchema,
  CampaignDetail: A.CampaignDetailSchema,
  CampaignWrapped: A.CampaignWrappedSchema,
  DeliveryLog: A.DeliveryLogSchema,
  CampaignLink: A.CampaignLinkSchema,
  ControlResult: A.ControlResultSchema,
  MessageSuggestions: A.SuggestionsSchema,
  Insights: A.InsightsSchema,
  HistoricalStats: A.HistoricalStatsSchema,
  ReceiptsAccepted: A.ReceiptsAcceptedSchema,
  FeedbackReceived: A.FeedbackReceivedSchema,
  Suppression: A.SuppressionAnswerSchema,
  SuppressionsAdded: A.SuppressionsAddedSchema,
  SuppressionImportResult: A.SuppressionImportResultSchema,
  Template: A.TemplateAnswerSchema,
  TemplateList: A.TemplateListSchema,
  RenderedMessage: A.RenderedMessageSchema,
  TemplateCheck: A.TemplateCheckSchema,
  DraftKept: A.DraftKeptSchema,
  TestSendResult: A.TestSendResultSchema,
  Image: A.ImageAnswerSchema,
  ImageList: A.ImageListSchema,
  Brand: A.BrandAnswerSchema,
  EventsRecorded: A.EventsRecordedSchema,
  EventList: A.EventListSchema,
  Flow: A.FlowAnswerSchema,
  FlowList: A.FlowListSchema,
  FlowPeople: A.FlowPeopleSchema,
} satisfies Record<string, z.ZodType>;

export type AnswerName = keyof typeof ANSWERS;
export type InputName = keyof typeof INPUTS;
