// Shapes the server sends to pages and to /api callers.
export type PublicUser = {
  _id: string;
  id: string;
  displayName: string;
  email: string;
  profileImage: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  company: string;
  position: string;
  provider: string;
  createdAt: string;
};

export type NotificationDto = {
  id: string;
  type: string;
  title: string;
  details: string;
  date: string;
  read: boolean;
};
